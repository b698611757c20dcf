// Password hash checks. `compare_bcrypt`: a password against a bcrypt hash. A wrong password
// gives false; a hash that is not bcrypt fails the mapping with Go's wording, as the reference does.
import { createRequire } from 'node:module';
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { fail, method, p, targetString } from './support.js';

const require = createRequire(import.meta.url);
// Loaded on first use: most mappings never compare passwords.
let bcrypt: typeof import('bcryptjs') | undefined;

const BCRYPT_HASH = /^\$2[abxy]?\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function checkHash(hash: string): void {
  if (hash.length < 59) throw fail('crypto/bcrypt: hashedSecret too short to be a bcrypted password');
  if (hash[0] !== '$')
    throw fail(
      `crypto/bcrypt: bcrypt hashes must start with '$', but hashedSecret started with '${hash[0]}'`,
    );
  const match = BCRYPT_HASH.exec(hash);
  if (!match) throw fail('crypto/bcrypt: hashedSecret is not a bcrypt hash');
  const cost = Number(match[1]);
  if (cost < 4 || cost > 31) throw fail(`crypto/bcrypt: cost ${cost} is outside allowed range (4,31)`);
}

method('compare_bcrypt', [p.str('hashed_secret')], (target, args) => {
  const password = targetString(target);
  const hash = args[0] as string;
  checkHash(hash);
  bcrypt ??= require('bcryptjs') as typeof import('bcryptjs');
  return bcrypt.compareSync(password, hash);
});

// `compare_argon2`: checks a password against an encoded argon2i/argon2id hash
// (`$argon2id$v=19$m=4096,t=3,p=1$<salt>$<key>`, unpadded base64). An empty password is never a
// match; a hash that cannot be read fails the mapping with the reference's wording.
let argon2: typeof import('@noble/hashes/argon2.js') | undefined;

const INVALID_ARGON2 = 'invalid argon2 hash';
// A hash names its own cost, and the hash comes from the data: without a bound one message could
// make a mapping allocate a GiB and hold the event loop for minutes. 64 MiB and 4 passes of it
// cover the parameters recommended today (RFC 9106: 64 MiB, t=3; OWASP: 19-46 MiB, t=1-2).
const MAX_ARGON2_MEMORY_KIB = 64 * 1024;
const MAX_ARGON2_WORK_KIB = 4 * MAX_ARGON2_MEMORY_KIB;

interface Argon2Hash {
  format: 'argon2i' | 'argon2id';
  memory: number;
  iterations: number;
  parallelism: number;
  salt: Buffer;
  key: Buffer;
}

/** Go's base64.RawStdEncoding: no padding, and nothing outside the alphabet. */
function rawBase64(text: string, what: string): Buffer {
  const bad = /[^A-Za-z0-9+/]/.exec(text);
  if (bad || text.length % 4 === 1) {
    const at = bad ? bad.index : text.length - 1;
    throw fail(`${INVALID_ARGON2}: parsing base64 ${what}; illegal base64 data at input byte ${at}`);
  }
  return Buffer.from(text, 'base64');
}

function decodeArgon2Hash(hash: string): Argon2Hash {
  const parts = hash.split('$');
  if (parts.length !== 6) throw fail(INVALID_ARGON2);
  const format = parts[1];
  if (format !== 'argon2i' && format !== 'argon2id')
    throw fail(`${INVALID_ARGON2}: unrecognised argon2 format`);
  if (!/^v=\S+/.test(parts[2]!)) throw fail(`${INVALID_ARGON2}: parsing version; unexpected EOF`);
  const params = /^m=(\d+),t=(\d+),p=(\d+)(.*)$/.exec(parts[3]!);
  if (!params) throw fail(`${INVALID_ARGON2}: parsing parameters; input does not match format`);
  if (params[4] !== '') throw fail(`${INVALID_ARGON2}: excess characters in parameters segment`);
  const [memory, iterations, parallelism] = [Number(params[1]), Number(params[2]), Number(params[3])];
  if (memory > 0xffff_ffff || iterations > 0xffff_ffff || parallelism > 0xff)
    throw fail(`${INVALID_ARGON2}: parsing parameters; value out of range`);
  if (memory > MAX_ARGON2_MEMORY_KIB || memory * iterations > MAX_ARGON2_WORK_KIB)
    throw fail(
      `${INVALID_ARGON2}: cost m=${memory},t=${iterations} is over nekton's limit ` +
        `(m at most ${MAX_ARGON2_MEMORY_KIB} KiB, m*t at most ${MAX_ARGON2_WORK_KIB})`,
    );
  const salt = rawBase64(parts[4]!, 'salt');
  const key = rawBase64(parts[5]!, 'key');
  return { format, memory, iterations, parallelism, salt, key };
}

method('compare_argon2', [p.str('hashed_secret')], (target, args) => {
  const password = targetString(target);
  if (password === '') return false;
  const hash = decodeArgon2Hash(args[0] as string);
  argon2 ??= require('@noble/hashes/argon2.js') as typeof import('@noble/hashes/argon2.js');
  const derive = hash.format === 'argon2i' ? argon2.argon2i : argon2.argon2id;
  let derived: Uint8Array;
  try {
    // Go's argon2 always computes version 0x13, whatever the hash says.
    derived = derive(Buffer.from(password, 'utf8'), hash.salt, {
      t: hash.iterations,
      m: hash.memory,
      p: hash.parallelism,
      dkLen: hash.key.length,
      version: 0x13,
    });
  } catch (e) {
    throw fail(`${INVALID_ARGON2}: ${(e as Error).message}`);
  }
  return derived.length === hash.key.length && nodeCrypto().timingSafeEqual(derived, hash.key);
});
