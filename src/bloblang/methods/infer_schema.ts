// `infer_schema`: the reference's common schema of a value (benthos public/schema InferFromAny then
// ToAny): {type, name?, children?, fingerprint}, the fingerprint a SHA-256 of the structure.
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { JsonNumber, Timestamp, type Value } from '../library.js';
import { isObject, typeName } from '../value.js';
import { fail, simpleMethod } from './support.js';

/** The reference's CommonType numbers (they go into the fingerprint). */
const TYPE_IDS = {
  BOOLEAN: 1,
  INT64: 3,
  FLOAT64: 5,
  STRING: 6,
  BYTE_ARRAY: 7,
  OBJECT: 8,
  ARRAY: 10,
  NULL: 11,
  TIMESTAMP: 13,
} as const;

type TypeName = keyof typeof TYPE_IDS;

interface Schema {
  name: string;
  type: TypeName;
  children: Schema[];
}

/** An integer-valued number is INT64 and any other FLOAT64: nekton keeps no int/float flag (1.0 reads as 1). */
function numberType(v: number | bigint | JsonNumber): TypeName {
  if (typeof v === 'bigint') return 'INT64';
  if (v instanceof JsonNumber) return /^-?\d+$/.test(v.text) ? 'INT64' : 'FLOAT64';
  return Number.isInteger(v) ? 'INT64' : 'FLOAT64';
}

function infer(name: string, v: Value, at: string): Schema {
  const schema: Schema = { name, type: 'NULL', children: [] };
  if (v === null) return schema;
  if (typeof v === 'boolean') schema.type = 'BOOLEAN';
  else if (typeof v === 'number' || typeof v === 'bigint' || v instanceof JsonNumber)
    schema.type = numberType(v);
  else if (typeof v === 'string') schema.type = 'STRING';
  else if (v instanceof Uint8Array) schema.type = 'BYTE_ARRAY';
  else if (v instanceof Timestamp) schema.type = 'TIMESTAMP';
  else if (Array.isArray(v)) {
    schema.type = 'ARRAY';
    v.forEach((e, i) => {
      const child = infer('', e, `${at}.${i}`);
      if (i === 0) schema.children = [child];
      else if (schema.children[0]!.type !== child.type)
        throw fail(`${at}.${i} mismatched array types, found ${schema.children[0]!.type} and ${child.type}`);
    });
  } else if (isObject(v)) {
    schema.type = 'OBJECT';
    for (const k of Object.keys(v).sort()) schema.children.push(infer(k, v[k]!, `${at}.${k}`));
  } else {
    throw fail(`${at} unsupported data type: ${typeName(v)}`);
  }
  return schema;
}

function writeFingerprint(s: Schema, out: string[]): void {
  out.push(`T:${TYPE_IDS[s.type]}|N:${s.name}|O:0|C:${s.children.length}|`);
  s.children.forEach((c, i) => {
    out.push(`[${i}:`);
    writeFingerprint(c, out);
    out.push(']');
  });
}

function toAny(s: Schema): Value {
  const parts: string[] = [];
  writeFingerprint(s, parts);
  const out: { [k: string]: Value } = {
    type: s.type,
    fingerprint: nodeCrypto().createHash('sha256').update(parts.join('')).digest('hex'),
  };
  if (s.name !== '') out.name = s.name;
  if (s.children.length > 0) out.children = s.children.map(toAny);
  return out;
}

simpleMethod('infer_schema', (v) => {
  try {
    return toAny(infer('', v, ''));
  } catch (e) {
    // The reference's error starts with the path (`.a.1 mismatched ...`), or a space at the root.
    const m = (e as Error).message;
    throw fail(m.startsWith('.') ? m : ` ${m.trimStart()}`);
  }
});
