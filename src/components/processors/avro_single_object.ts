// Avro's single-object encoding: the marker C3 01, the schema's CRC-64-AVRO ("Rabin")
// fingerprint of its Parsing Canonical Form as 8 little-endian bytes, then the binary body.
// avsc has no Rabin fingerprint, so the one from the Avro specification is computed here.

const EMPTY = 0xc15d213aa4d7a795n;
const MASK = (1n << 64n) - 1n;

const TABLE: bigint[] = Array.from({ length: 256 }, (_, i) => {
  let fp = BigInt(i);
  for (let j = 0; j < 8; j++) fp = (fp >> 1n) ^ (EMPTY & (-(fp & 1n) & MASK));
  return fp;
});

export function rabinFingerprint(text: string): Uint8Array {
  let fp = EMPTY;
  for (const byte of Buffer.from(text, 'utf8')) fp = (fp >> 8n) ^ TABLE[Number((fp ^ BigInt(byte)) & 0xffn)]!;
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, fp, true);
  return out;
}

const MARKER = Uint8Array.from([0xc3, 0x01]);

export function wrapSingleObject(fingerprint: Uint8Array, body: Uint8Array): Uint8Array {
  return Buffer.concat([MARKER, fingerprint, body]);
}

/** The body of a single-object encoded message, after checking its header names this schema. */
export function unwrapSingleObject(fingerprint: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 10 || data[0] !== 0xc3 || data[1] !== 0x01)
    throw new Error('not a single-object encoded Avro message (no C3 01 header)');
  if (!Buffer.from(data.subarray(2, 10)).equals(Buffer.from(fingerprint)))
    throw new Error('single-object encoded Avro message was written with a different schema');
  return data.subarray(10);
}
