// The reference's binary blob of message parts: a big-endian uint32 count, then per part a
// big-endian uint32 length and the bytes. `archive` writes it, `unarchive` reads it.

const WORD = 4;

export function serialiseParts(parts: readonly Uint8Array[]): Uint8Array {
  let size = WORD * (parts.length + 1);
  for (const part of parts) size += part.byteLength;
  const out = Buffer.allocUnsafe(size);
  out.writeUInt32BE(parts.length, 0);
  let at = WORD;
  for (const part of parts) {
    out.writeUInt32BE(part.byteLength, at);
    at += WORD;
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

const badBlob = () => new Error('serialised message bytes were in unexpected format');

/** The parts of a blob, as views on it; throws when the blob is short or its sizes overrun it. */
export function deserialiseParts(blob: Uint8Array): Uint8Array[] {
  if (blob.byteLength < WORD) throw badBlob();
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const count = view.getUint32(0);
  // Each part takes at least its length word: a count beyond that is a lie (checked before allocating).
  if (count >= blob.byteLength) throw badBlob();
  const parts: Uint8Array[] = [];
  let at = WORD;
  for (let i = 0; i < count; i++) {
    if (blob.byteLength - at < WORD) throw badBlob();
    const size = view.getUint32(at);
    at += WORD;
    if (blob.byteLength - at < size) throw badBlob();
    parts.push(blob.subarray(at, at + size));
    at += size;
  }
  return parts;
}
