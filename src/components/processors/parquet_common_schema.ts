// A schema in the reference's common schema format (as a `schema_metadata` value holds it:
// `{type: OBJECT, children: [{name, type, optional}, ...]}`) as `parquet_encode` columns.
import type { Column, ColumnType } from './parquet_schema.js';

const LEAVES: Record<string, ColumnType> = {
  BOOLEAN: 'BOOLEAN',
  INT32: 'INT32',
  INT64: 'INT64',
  FLOAT32: 'FLOAT',
  FLOAT64: 'DOUBLE',
  STRING: 'UTF8',
  BYTE_ARRAY: 'BYTE_ARRAY',
  TIMESTAMP: 'TIMESTAMP',
  UUID: 'UUID',
};

function field(raw: unknown, path: string): Column {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new Error(`${path}: expected a schema object, got ${JSON.stringify(raw)}`);
  const obj = raw as Record<string, unknown>;
  const name = typeof obj.name === 'string' ? obj.name : '';
  const type = String(obj.type ?? '').toUpperCase();
  const children = Array.isArray(obj.children) ? obj.children : [];
  const optional = obj.optional === true;
  if (type in LEAVES) return { name, type: LEAVES[type]!, repeated: false, optional, fields: [] };
  if (type === 'OBJECT') {
    if (children.length === 0)
      throw new Error(`source schema contains object '${name}' that contains zero children`);
    return {
      name,
      type: null,
      repeated: false,
      optional,
      fields: children.map((c, i) => field(c, `${path}.${i}`)),
    };
  }
  if (type === 'ARRAY') {
    if (children.length !== 1)
      throw new Error(`source schema contains array '${name}' that does not define a child type`);
    const element = field(children[0], `${path}.0`);
    if (element.repeated)
      throw new Error(`source schema contains array '${name}' of arrays, which is not supported`);
    return { ...element, name, repeated: true, optional: false };
  }
  throw new Error(
    `source schema contains field '${name}' of type '${type}' that is not supported by this processor`,
  );
}

/** The columns of a common schema, whose root must be an object. */
export function columnsFromCommonSchema(value: unknown): Column[] {
  let parsed = value;
  if (typeof value === 'string' || value instanceof Uint8Array) {
    const text = typeof value === 'string' ? value : new TextDecoder().decode(value);
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error('schema metadata is not a schema object');
    }
  }
  const root = field(parsed, 'schema');
  if (root.type !== null || root.repeated) throw new Error('the root of a schema must be an object');
  return root.fields;
}
