// hash() digests and uuid_v5(). Digests come from node:crypto; crc32, fnv32 and xxhash64 are
// small enough to compute here.
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { stringToBytes } from '../value.js';
import { argOptString, argString, fail, method, p, targetBytes } from './support.js';

// crc32 ----------------------------------------------------------------------

const CRC_POLYNOMIALS: Record<string, number> = {
  IEEE: 0xedb88320,
  Castagnoli: 0x82f63b78,
  Koopman: 0xeb31d82e,
};
const crcTables = new Map<number, Uint32Array>();

function crcTable(poly: number): Uint32Array {
  let table = crcTables.get(poly);
  if (!table) {
    table = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ poly : c >>> 1;
      table[i] = c >>> 0;
    }
    crcTables.set(poly, table);
  }
  return table;
}

export function crc32(data: Uint8Array, poly = CRC_POLYNOMIALS.IEEE): number {
  const table = crcTable(poly);
  let c = 0xffffffff;
  for (const b of data) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function uint32Bytes(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

// fnv32 (FNV-1, as Go's hash/fnv New32) -------------------------------------------

function fnv32(data: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of data) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return h;
}

// xxhash64 -----------------------------------------------------------------------

const M64 = (1n << 64n) - 1n;
const P1 = 11400714785074694791n;
const P2 = 14029467366897019727n;
const P3 = 1609587929392839161n;
const P4 = 9650029242287828579n;
const P5 = 2870177450012600261n;

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M64;
const round = (acc: bigint, input: bigint) => (rotl((acc + input * P2) & M64, 31n) * P1) & M64;
const mergeRound = (acc: bigint, val: bigint) => ((acc ^ round(0n, val)) * P1 + P4) & M64;

export function xxhash64(data: Uint8Array, seed = 0n): bigint {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u64 = (i: number) => view.getBigUint64(i, true);
  const len = data.length;
  let i = 0;
  let h: bigint;
  if (len >= 32) {
    let v1 = (seed + P1 + P2) & M64;
    let v2 = (seed + P2) & M64;
    let v3 = seed;
    let v4 = (seed - P1) & M64;
    for (; i + 32 <= len; i += 32) {
      v1 = round(v1, u64(i));
      v2 = round(v2, u64(i + 8));
      v3 = round(v3, u64(i + 16));
      v4 = round(v4, u64(i + 24));
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M64;
    h = mergeRound(h, v1);
    h = mergeRound(h, v2);
    h = mergeRound(h, v3);
    h = mergeRound(h, v4);
  } else {
    h = (seed + P5) & M64;
  }
  h = (h + BigInt(len)) & M64;
  for (; i + 8 <= len; i += 8) {
    h ^= round(0n, u64(i));
    h = (rotl(h, 27n) * P1 + P4) & M64;
  }
  if (i + 4 <= len) {
    h ^= (BigInt(view.getUint32(i, true)) * P1) & M64;
    h = (rotl(h, 23n) * P2 + P3) & M64;
    i += 4;
  }
  for (; i < len; i++) {
    h ^= (BigInt(data[i]) * P5) & M64;
    h = (rotl(h, 11n) * P1) & M64;
  }
  h ^= h >> 33n;
  h = (h * P2) & M64;
  h ^= h >> 29n;
  h = (h * P3) & M64;
  h ^= h >> 32n;
  return h;
}

// hash() ---------------------------------------------------------------------------

const DIGESTS: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
};
const HMACS: Record<string, string> = {
  hmac_md5: 'md5',
  hmac_sha1: 'sha1',
  hmac_sha256: 'sha256',
  hmac_sha512: 'sha512',
};

method(
  'hash',
  [p.str('algorithm'), p.any('key', { optional: true }), p.str('polynomial', { default: 'IEEE' })],
  (t, a) => {
    const algorithm = argString(a, 0);
    const data = targetBytes(t);
    const digest = DIGESTS[algorithm];
    if (digest) return new Uint8Array(nodeCrypto().createHash(digest).update(data).digest());
    const hmac = HMACS[algorithm];
    if (hmac) {
      const keyArg = a[1];
      const key =
        keyArg instanceof Uint8Array ? keyArg : stringToBytes(typeof keyArg === 'string' ? keyArg : '');
      if (key.length === 0) throw fail(`missing key for ${algorithm} algorithm`);
      return new Uint8Array(nodeCrypto().createHmac(hmac, key).update(data).digest());
    }
    switch (algorithm) {
      case 'crc32': {
        const poly = argOptString(a, 2) ?? 'IEEE';
        const value = CRC_POLYNOMIALS[poly];
        if (value === undefined) throw fail(`unsupported crc32 hash key ${JSON.stringify(poly)}`);
        return uint32Bytes(crc32(data, value));
      }
      case 'fnv32':
        return stringToBytes(String(fnv32(data)));
      case 'xxhash64':
        return stringToBytes(xxhash64(data).toString());
    }
    throw fail(`unrecognized hash type: ${algorithm}`);
  },
);

// uuid_v5 --------------------------------------------------------------------------

const NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

function parseUuid(s: string): Uint8Array | null {
  const hex = s.replace(/^urn:uuid:/i, '').replace(/^\{(.*)\}$/, '$1');
  if (!/^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/.test(hex))
    return null;
  return Uint8Array.from(Buffer.from(hex.replaceAll('-', ''), 'hex'));
}

export function formatUuid(b: Uint8Array): string {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

method('uuid_v5', [p.str('ns', { optional: true })], (t, a) => {
  if (t === null) return null;
  const nsText = argOptString(a, 0) ?? '';
  let ns: Uint8Array | null;
  if (nsText === '') ns = new Uint8Array(16);
  else ns = parseUuid(NAMESPACES[nsText] ?? nsText);
  if (!ns) throw fail(`invalid ns uuid: ${JSON.stringify(nsText)}`);
  const hash = nodeCrypto().createHash('sha1').update(ns).update(targetBytes(t)).digest();
  const b = Uint8Array.from(hash.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  return formatUuid(b);
});
