// The bytes the `cached` processor stores: the reference's versioned layout (big-endian uint32s:
// version 1, message count, then each message's length and bytes), so a cache shared with a
// Benthos instance (e.g. Redis) reads the same on both sides.

const FORMAT_VERSION = 1;

export function encodeCachedResult(parts: readonly Uint8Array[]): Uint8Array {
  let size = 8;
  for (const part of parts) size += 4 + part.byteLength;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, FORMAT_VERSION);
  view.setUint32(4, parts.length);
  let at = 8;
  for (const part of parts) {
    view.setUint32(at, part.byteLength);
    out.set(part, at + 4);
    at += 4 + part.byteLength;
  }
  return out;
}

/** The message contents of a stored result; throws when the bytes are not in this format. */
export function decodeCachedResult(data: Uint8Array): Uint8Array[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const readUint32 = (at: number, what: string): number => {
    if (at + 4 > data.byteLength) throw new Error(`failed to extract ${what}: data is too short`);
    return view.getUint32(at);
  };
  const version = readUint32(0, 'serialization format version');
  if (version !== FORMAT_VERSION) throw new Error(`invalid format version: ${version}`);
  const count = readUint32(4, 'batch size');
  const parts: Uint8Array[] = [];
  let at = 8;
  for (let i = 0; i < count; i++) {
    const size = readUint32(at, `message ${i} size`);
    at += 4;
    if (at + size > data.byteLength)
      throw new Error(`failed to extract message ${i}: data ended unexpectedly`);
    parts.push(data.subarray(at, at + size));
    at += size;
  }
  return parts;
}
