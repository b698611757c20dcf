// Straight-line functions per message type for the proto3 JSON reader and writer: each field read
// and written under its own name (property loads V8 caches per site), as protobufjs's own
// fromObject/toObject are generated. A loop over the fields reading `obj[name]` goes through one
// megamorphic site instead; on the bench documents the generated code takes ~half the time.

/** A field as the generated reader sees it. */
export interface ReaderField {
  /** The proto name: the key of the protobufjs object. */
  name: string;
  /** The JSON name, when it differs from the proto name (both are accepted). */
  alias: string | null;
  /** Whether a JSON null is converted (google.protobuf.Value, NullValue) rather than skipped. */
  nullIsValue: boolean;
  /** Converts the value (may throw); undefined: leave the field out. */
  read: (v: unknown, key: string) => unknown;
}

/**
 * A reader of JSON objects of one type: the protobufjs object, or null when the object holds a key
 * the type does not know, or a field under both its names (the general path says which, or
 * discards it).
 */
export type CompiledReader = (json: Record<string, unknown>) => Record<string, unknown> | null;

/** Names that objects inherit: `obj[name]` would find them on a JSON object without the key. */
const inherited = (name: string) => name in Object.prototype;

export function compileReader(fields: readonly ReaderField[]): CompiledReader | null {
  if (fields.some((f) => inherited(f.name) || (f.alias !== null && inherited(f.alias)))) return null;
  const lines = ['const out = {};', 'let n = 0;', 'let v;', 'let k;'];
  fields.forEach((f, i) => {
    const name = JSON.stringify(f.name);
    if (f.alias === null) lines.push(`v = json[${name}]; k = ${name};`);
    else {
      const alias = JSON.stringify(f.alias);
      lines.push(
        `v = json[${alias}]; k = ${alias};`,
        `if (v === undefined) { v = json[${name}]; k = ${name}; } else if (json[${name}] !== undefined) return null;`,
      );
    }
    const skip = f.nullIsValue ? 'false' : 'v === null';
    lines.push(
      `if (v !== undefined) { n++; if (!(${skip})) { v = R[${i}](v, k); if (v !== undefined) out[${name}] = v; } }`,
    );
  });
  lines.push('let keys = 0;', 'for (const _ in json) keys++;', 'return keys === n ? out : null;');
  const make = new Function('R', `return function read(json) {\n${lines.join('\n')}\n};`);
  return make(fields.map((f) => f.read)) as CompiledReader;
}

/** How the generated writer writes a field (as ProtoJsonWriter.message does). */
export type WriterKind = 'nonzero' | 'message' | 'list' | 'optional' | 'map';

/** A field as the generated writer sees it. */
export interface WriterField {
  name: string;
  key: string;
  kind: WriterKind;
  /** Whether a value of a nonzero field is its zero value (left out). */
  isZero: (v: unknown) => boolean;
  /** The JSON value of the field's value (map: of the whole map, undefined when it is empty). */
  write: (v: unknown) => unknown;
}

export type CompiledWriter = (msg: Record<string, unknown>) => Record<string, unknown>;

export function compileWriter(fields: readonly WriterField[]): CompiledWriter | null {
  if (fields.some((f) => inherited(f.name) || inherited(f.key))) return null;
  const lines = ['const out = {};', 'let v;'];
  fields.forEach((f, i) => {
    const name = JSON.stringify(f.name);
    const key = JSON.stringify(f.key);
    lines.push(`v = msg[${name}];`);
    switch (f.kind) {
      case 'nonzero':
        lines.push(`if (!Z[${i}](v)) out[${key}] = W[${i}](v);`);
        break;
      case 'message':
        lines.push(`if (v !== null && v !== undefined) out[${key}] = W[${i}](v);`);
        break;
      case 'list':
        lines.push(`if (v !== null && v !== undefined && v.length > 0) out[${key}] = v.map(W[${i}]);`);
        break;
      case 'optional':
        lines.push(
          `if (v !== null && v !== undefined && Object.hasOwn(msg, ${name})) out[${key}] = W[${i}](v);`,
        );
        break;
      default:
        lines.push(`v = W[${i}](v); if (v !== undefined) out[${key}] = v;`);
    }
  });
  lines.push('return out;');
  const make = new Function('W', 'Z', `return function write(msg) {\n${lines.join('\n')}\n};`);
  return make(
    fields.map((f) => f.write),
    fields.map((f) => f.isZero),
  ) as CompiledWriter;
}
