// HTTP basic auth with the reference's password schemes (md5, sha256, bcrypt, scrypt).

import type { IncomingMessage } from 'node:http';
import { nodeCrypto } from '../base/lazy_builtins.js';
import { compareBcrypt } from './bcrypt_worker.js';
import type { BasicAuthConfig } from './config.js';
import { decodeStrictBase64 } from './config.js';

/** `ok`: let it through; `denied`: 401 with a challenge; `busy`: 429, too many checks queued. */
export type AuthVerdict = 'ok' | 'denied' | 'busy';

export interface BasicAuthenticator {
  /** The `WWW-Authenticate` value sent with a 401. */
  readonly challenge: string;
  /** Synchronous for md5/sha256 and cached credentials; a promise only when a slow hash must run. */
  check(req: IncomingMessage): AuthVerdict | Promise<AuthVerdict>;
}

const SCRYPT = { N: 32768, r: 8, p: 1, keyLen: 32 } as const;
// scrypt needs 128 * N * r bytes (32 MiB here); Node's default maxmem is exactly 32 MiB and refuses it.
const SCRYPT_MAXMEM = 128 * SCRYPT.N * SCRYPT.r * 2;
const VERIFIED_CACHE_LIMIT = 1024;
/**
 * Slow hashes verified at once, and how many more may wait: a flood of wrong passwords then costs
 * at most two hashes' worth of CPU at a time and cannot starve clients whose credentials verified
 * before (answered from the cache); past the queue it is 429, not an ever-longer wait.
 */
const CONCURRENT_VERIFICATIONS = 2;
const QUEUED_VERIFICATIONS = 16;

export function createBasicAuthenticator(config: BasicAuthConfig): BasicAuthenticator {
  const challenge = `Basic realm="${config.realm}", charset="UTF-8"`;
  // validateHttpConfig refused a hash that is not base64 before the server started.
  const expected = decodeStrictBase64(config.password_hash) ?? Buffer.alloc(0);
  const expectedUser = sha256(Buffer.from(config.username, 'utf8'));
  const verifyPassword = passwordVerifier(config, expected);
  // bcrypt/scrypt cost ~100 ms; remember credentials that verified, keyed by a digest, never the password.
  const verified = new Set<string>();
  const inFlight = new Map<string, Promise<AuthVerdict>>();
  const slots = new VerificationSlots(CONCURRENT_VERIFICATIONS, QUEUED_VERIFICATIONS);

  const check = (req: IncomingMessage): AuthVerdict | Promise<AuthVerdict> => {
    const { username, password } = parseBasicAuthorization(req.headers.authorization);
    const userMatches = nodeCrypto().timingSafeEqual(sha256(Buffer.from(username, 'utf8')), expectedUser);
    if (verifyPassword.cheap) {
      return verifyPassword.verify(password) && userMatches ? 'ok' : 'denied';
    }
    const cacheKey = sha256(Buffer.from(`${username}\0${password}`, 'utf8')).toString('base64');
    if (verified.has(cacheKey)) return 'ok';
    // Concurrent requests with the same credentials share one verification instead of each paying for it.
    let pending = inFlight.get(cacheKey);
    if (!pending) {
      // The hash runs for an unknown user too: a wrong user must cost what a wrong password does,
      // or the answer time tells which user names exist.
      pending = slots
        .run(() => verifyPassword.verify(password))
        .then(
          (ok): AuthVerdict => {
            if (ok === 'busy') return 'busy';
            if (!ok || !userMatches) return 'denied';
            if (verified.size >= VERIFIED_CACHE_LIMIT) verified.clear();
            verified.add(cacheKey);
            return 'ok';
          },
          (): AuthVerdict => 'denied',
        )
        .finally(() => inFlight.delete(cacheKey));
      inFlight.set(cacheKey, pending);
    }
    return pending;
  };
  return { challenge, check };
}

/** At most `concurrent` jobs at once and `queued` waiting; beyond that a job is refused ('busy'). */
class VerificationSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly queued: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T | 'busy'> {
    if (this.running >= this.concurrent) {
      if (this.waiting.length >= this.queued) return 'busy';
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await job();
    } finally {
      // Hand the slot straight to the next waiter (running stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

type PasswordVerifier =
  | { cheap: true; verify(password: string): boolean }
  | { cheap: false; verify(password: string): Promise<boolean> };

function passwordVerifier(config: BasicAuthConfig, expected: Buffer): PasswordVerifier {
  switch (config.algorithm) {
    case 'md5':
      return {
        cheap: true,
        verify: (pw) => equalBytes(nodeCrypto().createHash('md5').update(pw).digest(), expected),
      };
    case 'bcrypt': {
      const hash = expected.toString('utf8');
      // On a worker thread, loaded on first use: no start-up cost for every other config.
      return { cheap: false, verify: (pw) => compareBcrypt(pw, hash) };
    }
    case 'scrypt': {
      const salt = Buffer.from(config.salt, 'base64');
      return {
        cheap: false,
        verify: (pw) =>
          new Promise<boolean>((resolve, reject) => {
            const { N, r, p, keyLen } = SCRYPT;
            nodeCrypto().scrypt(pw, salt, keyLen, { N, r, p, maxmem: SCRYPT_MAXMEM }, (err, key) =>
              err ? reject(err) : resolve(equalBytes(key, expected)),
            );
          }),
      };
    }
    default:
      return { cheap: true, verify: (pw) => equalBytes(sha256(Buffer.from(pw, 'utf8')), expected) };
  }
}

/** Go's Request.BasicAuth: a missing or malformed header yields empty credentials. */
export function parseBasicAuthorization(header: string | undefined): { username: string; password: string } {
  const none = { username: '', password: '' };
  if (header === undefined || header.length < 6 || header.slice(0, 6).toLowerCase() !== 'basic ') return none;
  const decoded = decodeStrictBase64(header.slice(6));
  if (decoded === undefined) return none;
  const text = decoded.toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return none;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

function sha256(data: Buffer): Buffer {
  return nodeCrypto().createHash('sha256').update(data).digest();
}

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}
