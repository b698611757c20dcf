// Base-85 codecs: Go's encoding/ascii85 (no <~ ~> delimiters, `z` for zero groups) and ZeroMQ Z85.
import { fail } from './support.js';

export function encodeAscii85(src: Uint8Array): string {
  let out = '';
  for (let i = 0; i < src.length; i += 4) {
    const n = Math.min(4, src.length - i);
    let v = 0;
    for (let j = 0; j < 4; j++) v = v * 256 + (j < n ? src[i + j] : 0);
    if (v === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const chars = new Array<string>(5);
    for (let j = 4; j >= 0; j--) {
      chars[j] = String.fromCharCode(33 + (v % 85));
      v = Math.floor(v / 85);
    }
    out += chars.slice(0, n + 1).join('');
  }
  return out;
}

export function decodeAscii85(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  let v = 0;
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x0b) continue;
    if (c === 0x7a && n === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) throw fail(`illegal ascii85 data at input byte ${i}`);
    v = v * 85 + (c - 33);
    n++;
    if (n === 5) {
      if (v > 0xffffffff) throw fail(`illegal ascii85 data at input byte ${i}`);
      out.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
      v = 0;
      n = 0;
    }
  }
  if (n > 0) {
    if (n === 1) throw fail(`illegal ascii85 data at input byte ${src.length}`);
    for (let j = n; j < 5; j++) v = v * 85 + 84;
    const bytes = [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
    out.push(...bytes.slice(0, n - 1));
  }
  return Uint8Array.from(out);
}

const Z85 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const Z85_INDEX = new Map([...Z85].map((c, i) => [c.charCodeAt(0), i]));

export function encodeZ85(src: Uint8Array): string {
  if (src.length % 4 !== 0) throw fail('z85: invalid length');
  let out = '';
  for (let i = 0; i < src.length; i += 4) {
    let v = ((src[i] << 24) | (src[i + 1] << 16) | (src[i + 2] << 8) | src[i + 3]) >>> 0;
    const chars = new Array<string>(5);
    for (let j = 4; j >= 0; j--) {
      chars[j] = Z85[v % 85];
      v = Math.floor(v / 85);
    }
    out += chars.join('');
  }
  return out;
}

export function decodeZ85(src: Uint8Array): Uint8Array {
  if (src.length % 5 !== 0) throw fail('z85: invalid length');
  const out = new Uint8Array((src.length / 5) * 4);
  for (let i = 0, o = 0; i < src.length; i += 5, o += 4) {
    let v = 0;
    for (let j = 0; j < 5; j++) {
      const d = Z85_INDEX.get(src[i + j]);
      if (d === undefined) throw fail(`z85: illegal character at byte ${i + j}`);
      v = v * 85 + d;
    }
    if (v > 0xffffffff) throw fail(`z85: illegal value at byte ${i}`);
    out[o] = (v >>> 24) & 0xff;
    out[o + 1] = (v >>> 16) & 0xff;
    out[o + 2] = (v >>> 8) & 0xff;
    out[o + 3] = v & 0xff;
  }
  return out;
}
