// `with_schema_registry_header(schema_id, message)`: the Confluent wire format, a zero magic byte
// and the schema id as 4 big-endian bytes before the message bytes.
import { JsonNumber, registerFunction, Timestamp, type Value } from '../library.js';
import { fail, p } from '../methods/support.js';
import { stringToBytes, valueToString } from '../value.js';

const MAX_SCHEMA_ID = 0xffff_ffff;

/** Go's %T of a Bloblang value, for the reference's "must be a number" error. */
function goType(v: Value): string {
  if (v === null) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (v instanceof Uint8Array) return '[]uint8';
  if (v instanceof Timestamp) return 'time.Time';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

function schemaId(v: Value): number {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
    if (v < 0 || v > MAX_SCHEMA_ID) throw fail(`schema ID must be between 0 and ${MAX_SCHEMA_ID}, got ${v}`);
    return Number(v);
  }
  if (typeof v === 'number' || v instanceof JsonNumber) {
    const n = typeof v === 'number' ? v : v.toNumber();
    if (!Number.isInteger(n) || n < 0 || n > MAX_SCHEMA_ID)
      throw fail(`schema ID must be a valid integer between 0 and ${MAX_SCHEMA_ID}, got ${n.toFixed(6)}`);
    return n;
  }
  throw fail(`schema ID must be a number, got ${goType(v)}`);
}

function messageBytes(v: Value): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (typeof v === 'string') return stringToBytes(v);
  if (v instanceof Timestamp) return stringToBytes(valueToString(v));
  throw fail(
    `message must be bytes or string: expected bytes value, got ${goType(v) === '<nil>' ? 'null' : goType(v)}`,
  );
}

registerFunction({
  name: 'with_schema_registry_header',
  params: [p.any('schema_id'), p.any('message')],
  impl(a) {
    const message = messageBytes((a[1] ?? null) as Value);
    const id = schemaId((a[0] ?? null) as Value);
    const out = new Uint8Array(message.length + 5);
    new DataView(out.buffer).setUint32(1, id);
    out.set(message, 5);
    return out;
  },
});
