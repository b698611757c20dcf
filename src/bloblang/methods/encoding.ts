// encode/decode (base64 family, hex, ascii85, z85) and AES encrypt/decrypt.
import { nodeCrypto } from '../../base/lazy_builtins.js';
import type { Value } from '../library.js';
import { bytesToString, stringToBytes } from '../value.js';
import { decodeAscii85, decodeZ85, encodeAscii85, encodeZ85 } from './encoding_85.js';
import { argString, fail, method, p, targetBytes } from './support.js';

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Strict base64 decoding with Go's `illegal base64 data at input byte N` errors. */
function decodeBase64(s: string, alphabet: string, padded: boolean): Uint8Array {
  const lookup = new Map<string, number>();
  for (let i = 0; i < alphabet.length; i++) lookup.set(alphabet[i], i);
  const bytes: number[] = [];
  let buf = 0;
  let bits = 0;
  let i = 0;
  // Go's decoder skips newlines.
  const chars = s.replace(/[\r\n]/g, '');
  for (; i < chars.length; i++) {
    const c = chars[i];
    if (c === '=') break;
    const v = lookup.get(c);
    if (v === undefined) throw fail(`illegal base64 data at input byte ${i}`);
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buf >> bits) & 0xff);
    }
  }
  const dataChars = i;
  if (padded) {
    const rem = dataChars % 4;
    const padding = chars.slice(i);
    const wanted = rem === 0 ? 0 : 4 - rem;
    if (rem === 1 || padding.length !== wanted || !/^=*$/.test(padding)) {
      throw fail(
        `illegal base64 data at input byte ${rem === 1 ? dataChars - 1 : dataChars + Math.min(wanted, padding.length)}`,
      );
    }
  } else {
    if (i < chars.length || dataChars % 4 === 1) throw fail(`illegal base64 data at input byte ${i}`);
  }
  return Uint8Array.from(bytes);
}

function encodeBase64(b: Uint8Array, alphabet: 'std' | 'url', padded: boolean): string {
  let s = Buffer.from(b).toString(alphabet === 'std' ? 'base64' : 'base64url');
  if (alphabet === 'url' && padded) s += '='.repeat((4 - (s.length % 4)) % 4);
  if (alphabet === 'std' && !padded) s = s.replace(/=+$/, '');
  return s;
}

function decodeHex(s: string): Uint8Array {
  const out = new Uint8Array(Math.floor(s.length / 2));
  for (let i = 0; i < s.length; i++) {
    if (!/[0-9a-fA-F]/.test(s[i])) {
      const cp = s.codePointAt(i)!;
      throw fail(
        `encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${quoteRune(s[i])}`,
      );
    }
  }
  if (s.length % 2 === 1) throw fail('encoding/hex: odd length hex string');
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(s.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function quoteRune(c: string): string {
  return c === "'" ? "'\\''" : `'${c}'`;
}

const ENCODERS: Record<string, (b: Uint8Array) => string> = {
  base64: (b) => encodeBase64(b, 'std', true),
  base64rawstd: (b) => encodeBase64(b, 'std', false),
  base64url: (b) => encodeBase64(b, 'url', true),
  base64rawurl: (b) => encodeBase64(b, 'url', false),
  hex: (b) => Buffer.from(b).toString('hex'),
  ascii85: encodeAscii85,
  z85: encodeZ85,
};

const DECODERS: Record<string, (b: Uint8Array) => Uint8Array> = {
  base64: (b) => decodeBase64(bytesToString(b), STD, true),
  base64rawstd: (b) => decodeBase64(bytesToString(b), STD, false),
  base64url: (b) => decodeBase64(bytesToString(b), URL, true),
  base64rawurl: (b) => decodeBase64(bytesToString(b), URL, false),
  hex: (b) => decodeHex(bytesToString(b)),
  ascii85: decodeAscii85,
  z85: decodeZ85,
};

method('encode', [p.str('scheme')], (t, a) => {
  const scheme = argString(a, 0);
  const enc = ENCODERS[scheme];
  if (!enc) throw fail(`unrecognized encoding type: ${scheme}`);
  return enc(targetBytes(t));
});

method('decode', [p.str('scheme')], (t, a) => {
  const scheme = argString(a, 0);
  const dec = DECODERS[scheme];
  if (!dec) throw fail(`unrecognized encoding type: ${scheme}`);
  return dec(targetBytes(t));
});

// AES --------------------------------------------------------------------------

/** Key and IV arrive as raw bytes (their text form would lose non-UTF-8 bytes). */
function rawBytes(v: unknown, name: string): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return stringToBytes(v);
  throw fail(`parameter ${name}: expected string value`);
}

function cipherName(scheme: string, key: Uint8Array, decrypt: boolean): string {
  if (![16, 24, 32].includes(key.length)) throw fail(`crypto/aes: invalid key size ${key.length}`);
  if (!['ctr', 'ofb', 'cbc', 'gcm'].includes(scheme)) {
    throw fail(`unrecognized ${decrypt ? 'decryption' : 'encryption'} type: ${scheme}`);
  }
  return `aes-${key.length * 8}-${scheme}`;
}

function checkIv(scheme: string, iv: Uint8Array): void {
  if (scheme === 'gcm') {
    if (iv.length === 0) throw fail('cipher: the nonce can not be empty');
  } else if (iv.length !== 16) {
    throw fail(`cipher.New${scheme.toUpperCase()}: IV length must equal block size`);
  }
}

const aesParams = [p.str('scheme'), p.any('key'), p.any('iv')];

method('encrypt_aes', aesParams, (t, a) => {
  const scheme = argString(a, 0);
  const key = rawBytes(a[1], 'key');
  const iv = rawBytes(a[2], 'iv');
  const name = cipherName(scheme, key, false);
  checkIv(scheme, iv);
  const data = targetBytes(t);
  if (scheme === 'cbc' && data.length % 16 !== 0) throw fail('plaintext is not a multiple of the block size');
  const c = nodeCrypto().createCipheriv(name, key, iv);
  if (scheme === 'cbc') c.setAutoPadding(false);
  const out = Buffer.concat([c.update(data), c.final()]);
  if (scheme === 'gcm')
    return new Uint8Array(Buffer.concat([out, (c as unknown as { getAuthTag(): Buffer }).getAuthTag()]));
  return new Uint8Array(out);
});

method('decrypt_aes', aesParams, (t, a): Value => {
  const scheme = argString(a, 0);
  const key = rawBytes(a[1], 'key');
  const iv = rawBytes(a[2], 'iv');
  const name = cipherName(scheme, key, true);
  checkIv(scheme, iv);
  let data = targetBytes(t);
  if (scheme === 'cbc' && data.length % 16 !== 0)
    throw fail('ciphertext is not a multiple of the block size');
  const d = nodeCrypto().createDecipheriv(name, key, iv);
  if (scheme === 'cbc') d.setAutoPadding(false);
  if (scheme === 'gcm') {
    if (data.length < 16) throw fail('cipher: message authentication failed');
    (d as unknown as { setAuthTag(tag: Uint8Array): void }).setAuthTag(data.subarray(data.length - 16));
    data = data.subarray(0, data.length - 16);
  }
  try {
    return new Uint8Array(Buffer.concat([d.update(data), d.final()]));
  } catch {
    throw fail('cipher: message authentication failed');
  }
});
