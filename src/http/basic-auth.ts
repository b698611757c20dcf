// HTTP basic auth with the reference's password schemes (md5, sha256, bcrypt, scrypt).

import type { IncomingMessage } from 'node:http';
import { nodeCrypto } from '../engine/lazy_builtins.js';
import type { BasicAuthConfig } from './config.js';
import { decodeStrictBase64 } from './config.js';

/** `ok`: let it through; `denied`: 401 with a challenge; `misconfigured`: 500 (bad password_hash). */
export type AuthVerdict = 'ok' | 'denied' | 'misconfigured';

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

export function createBasicAuthenticator(config: BasicAuthConfig): BasicAuthenticator {
  const challenge = `Basic realm="${config.realm}", charset="UTF-8"`;
  const expected = decodeStrictBase64(config.password_hash);
  const expectedUser = sha256(Buffer.from(config.username, 'utf8'));
  const verifyPassword = passwordVerifier(config, expected ?? Buffer.alloc(0));
  // bcrypt/scrypt cost ~100 ms; remember credentials that verified, keyed by a digest, never the password.
  const verified = new Set<string>();
  const inFlight = new Map<string, Promise<AuthVerdict>>();

  const check = (req: IncomingMessage): AuthVerdict | Promise<AuthVerdict> => {
    if (expected === undefined) return 'misconfigured';
    const { username, password } = parseBasicAuthorization(req.headers.authorization);
    const userMatches = nodeCrypto().timingSafeEqual(sha256(Buffer.from(username, 'utf8')), expectedUser);
    if (verifyPassword.cheap) {
      return verifyPassword.verify(password) && userMatches ? 'ok' : 'denied';
    }
    if (!userMatches) return 'denied';
    const cacheKey = sha256(Buffer.from(`${username}\0${password}`, 'utf8')).toString('base64');
    if (verified.has(cacheKey)) return 'ok';
    // Concurrent requests with the same credentials share one verification instead of each paying for it.
    let pending = inFlight.get(cacheKey);
    if (!pending) {
      pending = verifyPassword
        .verify(password)
        .then(
          (ok): AuthVerdict => {
            if (!ok) return 'denied';
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
      // bcryptjs is loaded on first use: ~13 ms of start-up saved for every other config.
      return {
        cheap: false,
        verify: async (pw) => (await import('bcryptjs')).default.compare(pw, hash),
      };
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
