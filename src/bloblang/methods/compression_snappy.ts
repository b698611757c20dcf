// Snappy block format (what the reference's `snappy` algorithm produces): a greedy encoder and a
// full decoder. Encoded bytes are valid snappy but need not match Go's byte for byte.
import { fail } from './support.js';

export function snappyDecode(src: Uint8Array): Uint8Array {
  let pos = 0;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= src.length || shift > 35) throw fail('snappy: corrupt input');
    const b = src[pos++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  const out = new Uint8Array(length);
  let o = 0;
  const corrupt = () => fail('snappy: corrupt input');
  while (pos < src.length) {
    const tag = src[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = tag >> 2;
      if (len >= 60) {
        const extra = len - 59;
        if (pos + extra > src.length) throw corrupt();
        len = 0;
        for (let i = 0; i < extra; i++) len += src[pos + i] * 256 ** i;
        pos += extra;
      }
      len += 1;
      if (pos + len > src.length || o + len > out.length) throw corrupt();
      out.set(src.subarray(pos, pos + len), o);
      pos += len;
      o += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (pos >= src.length) throw corrupt();
      len = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | src[pos++];
    } else if (kind === 2) {
      if (pos + 2 > src.length) throw corrupt();
      len = (tag >> 2) + 1;
      offset = src[pos] | (src[pos + 1] << 8);
      pos += 2;
    } else {
      if (pos + 4 > src.length) throw corrupt();
      len = (tag >> 2) + 1;
      offset = (src[pos] | (src[pos + 1] << 8) | (src[pos + 2] << 16) | (src[pos + 3] << 24)) >>> 0;
      pos += 4;
    }
    if (offset === 0 || offset > o || o + len > out.length) throw corrupt();
    for (let i = 0; i < len; i++, o++) out[o] = out[o - offset];
  }
  if (o !== out.length) throw corrupt();
  return out;
}

function emitLiteral(out: number[], src: Uint8Array, start: number, end: number): void {
  const n = end - start - 1;
  if (n < 0) return;
  if (n < 60) out.push(n << 2);
  else if (n < 0x100) out.push(60 << 2, n);
  else if (n < 0x10000) out.push(61 << 2, n & 0xff, n >> 8);
  else out.push(62 << 2, n & 0xff, (n >> 8) & 0xff, n >> 16);
  for (let i = start; i < end; i++) out.push(src[i]);
}

function emitCopy(out: number[], offset: number, length: number): void {
  let len = length;
  while (len > 0) {
    const chunk = Math.min(len, 64);
    out.push(((chunk - 1) << 2) | 2, offset & 0xff, offset >> 8);
    len -= chunk;
  }
}

export function snappyEncode(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let n = src.length; ; ) {
    if (n < 0x80) {
      out.push(n);
      break;
    }
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  const table = new Map<number, number>();
  let literalStart = 0;
  let i = 0;
  const key = (k: number) => (src[k] | (src[k + 1] << 8) | (src[k + 2] << 16) | (src[k + 3] << 24)) >>> 0;
  while (i + 4 <= src.length) {
    const k = key(i);
    const cand = table.get(k);
    table.set(k, i);
    if (cand !== undefined && i - cand < 0x10000 && key(cand) === k) {
      let len = 4;
      while (i + len < src.length && src[cand + len] === src[i + len]) len++;
      emitLiteral(out, src, literalStart, i);
      emitCopy(out, i - cand, len);
      i += len;
      literalStart = i;
      continue;
    }
    i++;
  }
  emitLiteral(out, src, literalStart, src.length);
  return Uint8Array.from(out);
}
