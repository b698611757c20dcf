// The `http` section of the service config, its defaults and the checks run before the server starts.
import { parseDurationMs } from '../config/duration.js';
import { ConfigError, FieldValueError } from '../engine/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../listener/body_limit.js';

export type BasicAuthAlgorithm = 'md5' | 'sha256' | 'bcrypt' | 'scrypt';

export interface CorsConfig {
  enabled: boolean;
  allowed_origins: string[];
}

export interface BasicAuthConfig {
  enabled: boolean;
  realm: string;
  username: string;
  /** Base64 of the digest (md5/sha256/scrypt) or of the bcrypt hash string. */
  password_hash: string;
  algorithm: string;
  /** Base64; only used by scrypt. */
  salt: string;
}

export interface HttpConfig {
  enabled: boolean;
  address: string;
  root_path: string;
  debug_endpoints: boolean;
  cert_file: string;
  key_file: string;
  /** Go duration: time allowed to receive a request's headers (slow-loris guard); 0s = no limit. */
  read_header_timeout: string;
  /** Go duration: time allowed to receive a whole request, body included; 0s = no limit. */
  read_timeout: string;
  /** nekton only: the largest request body read, in bytes (413 above it). */
  max_body_size: number;
  cors: CorsConfig;
  basic_auth: BasicAuthConfig;
}

/** What callers may pass: any subset, nested objects included. */
export type HttpConfigInput = Partial<Omit<HttpConfig, 'cors' | 'basic_auth'>> & {
  cors?: Partial<CorsConfig>;
  basic_auth?: Partial<BasicAuthConfig>;
};

export const BASIC_AUTH_ALGORITHMS: readonly BasicAuthAlgorithm[] = ['md5', 'sha256', 'bcrypt', 'scrypt'];

export function defaultHttpConfig(): HttpConfig {
  return {
    enabled: true,
    address: '0.0.0.0:4195',
    root_path: '/nekton',
    debug_endpoints: false,
    cert_file: '',
    key_file: '',
    read_header_timeout: '10s',
    read_timeout: '60s',
    max_body_size: DEFAULT_MAX_BODY_BYTES,
    cors: { enabled: false, allowed_origins: [] },
    basic_auth: {
      enabled: false,
      realm: 'restricted',
      username: '',
      password_hash: '',
      algorithm: 'sha256',
      salt: '',
    },
  };
}

export function resolveHttpConfig(input: HttpConfigInput = {}): HttpConfig {
  const defaults = defaultHttpConfig();
  return {
    ...defaults,
    ...input,
    cors: { ...defaults.cors, ...input.cors },
    basic_auth: { ...defaults.basic_auth, ...input.basic_auth },
  };
}

/** Throws a ConfigError with the reference's wording when the section cannot be served. */
export function validateHttpConfig(config: HttpConfig): void {
  const headerMs = timeoutMs(config, 'read_header_timeout');
  const requestMs = timeoutMs(config, 'read_timeout');
  if (requestMs > 0 && headerMs > requestMs) {
    throw new ConfigError('read_header_timeout must not be longer than read_timeout');
  }
  if (!Number.isSafeInteger(config.max_body_size) || config.max_body_size < 1) {
    throw new FieldValueError('http.max_body_size', 'must be a whole number of bytes above 0', true);
  }
  if ((config.cert_file === '') !== (config.key_file === '')) {
    throw new ConfigError('both cert_file and key_file must be specified, or neither');
  }
  if (config.cors.enabled && config.cors.allowed_origins.length === 0) {
    throw new ConfigError('bad CORS configuration: must specify at least one allowed origin');
  }
  const auth = config.basic_auth;
  if (!auth.enabled) return;
  if (auth.username === '' || auth.password_hash === '') {
    throw new ConfigError('both username and password_hash are required');
  }
  if (!(BASIC_AUTH_ALGORITHMS as readonly string[]).includes(auth.algorithm)) {
    throw new ConfigError('algorithm should be one of md5, sha256, bcrypt, or scrypt');
  }
  if (auth.algorithm === 'scrypt') {
    if (auth.salt === '') throw new ConfigError('salt is required for scrypt');
    const saltError = base64Problem(auth.salt);
    if (saltError) throw new ConfigError(`invalid salt : ${saltError}`);
  }
  const hashError = passwordHashProblem(auth.password_hash, auth.algorithm as BasicAuthAlgorithm);
  // The reference starts and answers 500 to every request; nekton refuses to start instead.
  if (hashError) throw new ConfigError(`invalid password_hash : ${hashError}`);
}

/** Digest sizes: a hash of another length can never match, so no password would ever get in. */
const DIGEST_BYTES: Partial<Record<BasicAuthAlgorithm, number>> = { md5: 16, sha256: 32, scrypt: 32 };
const BCRYPT_HASH = /^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** Why `password_hash` can never verify a password with `algorithm`, or undefined. */
export function passwordHashProblem(hash: string, algorithm: BasicAuthAlgorithm): string | undefined {
  const base64Error = base64Problem(hash);
  if (base64Error) return base64Error;
  const decoded = Buffer.from(hash, 'base64');
  if (algorithm === 'bcrypt') {
    return BCRYPT_HASH.test(decoded.toString('latin1')) ? undefined : 'not the base64 of a bcrypt hash';
  }
  const size = DIGEST_BYTES[algorithm];
  if (size !== undefined && decoded.length !== size) {
    return `a ${algorithm} digest is ${size} bytes, this one is ${decoded.length}`;
  }
  return undefined;
}

/** What validateHttpConfig would refuse the section for (for `nekton lint`), or undefined. */
export function httpConfigProblem(input: HttpConfigInput | undefined): string | undefined {
  try {
    validateHttpConfig(resolveHttpConfig(input));
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** A timeout field in milliseconds; throws a ConfigError naming the field when it is not a duration. */
export function timeoutMs(config: HttpConfig, name: 'read_header_timeout' | 'read_timeout'): number {
  let ms: number;
  try {
    ms = parseDurationMs(config[name]);
  } catch (err) {
    throw new FieldValueError(`http.${name}`, err instanceof Error ? err.message : String(err), true);
  }
  if (ms < 0) throw new FieldValueError(`http.${name}`, 'must not be negative', true);
  return ms;
}

const BASE64_CHAR = /[A-Za-z0-9+/]/;

/**
 * Checks text against standard padded base64 the way Go's base64.StdEncoding does and returns Go's
 * message for the first problem, or undefined. (Buffer.from(…, 'base64') silently skips bad input.)
 */
export function base64Problem(text: string): string | undefined {
  const clean = text.replace(/[\r\n]/g, '');
  const illegalAt = (i: number) => `illegal base64 data at input byte ${i}`;
  let padding = 0;
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i];
    if (ch === '=') {
      padding++;
      if (padding > 2) return illegalAt(i);
      continue;
    }
    if (padding > 0 || !BASE64_CHAR.test(ch)) return illegalAt(i);
  }
  if (clean.length % 4 !== 0) return illegalAt(clean.length - (clean.length % 4));
  return undefined;
}

/** Decodes strict standard base64, or returns undefined when Go would refuse it. */
export function decodeStrictBase64(text: string): Buffer | undefined {
  return base64Problem(text) === undefined ? Buffer.from(text, 'base64') : undefined;
}
