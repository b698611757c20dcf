// Rows of postgres_cdc as JSON-ready values, and each table's schema in the common schema form
// the reference reports in the `schema` metadata (a fresh one after every relation message, so an
// ALTER TABLE shows in the next change's metadata).

export interface ColumnInfo {
  name: string;
  typeOid: number;
}

export interface CommonSchema {
  name: string;
  type: 'OBJECT';
  optional: boolean;
  children: { name: string; type: string; optional: boolean }[];
}

const COMMON_TYPES: Record<number, string> = {
  16: 'BOOLEAN',
  17: 'BYTE_ARRAY',
  20: 'INT64',
  21: 'INT32',
  23: 'INT32',
  26: 'INT64',
  700: 'FLOAT32',
  701: 'FLOAT64',
  1082: 'TIMESTAMP',
  1114: 'TIMESTAMP',
  1184: 'TIMESTAMP',
  114: 'ANY',
  3802: 'ANY',
};

export function commonSchema(table: string, columns: readonly ColumnInfo[]): CommonSchema {
  return {
    name: table,
    type: 'OBJECT',
    optional: false,
    children: columns.map((c) => ({
      name: c.name,
      type: COMMON_TYPES[c.typeOid] ?? 'STRING',
      optional: true,
    })),
  };
}

/** int8 as a number when it fits (the reference emits JSON numbers), Buffers as base64 strings. */
export function normaliseRow(
  row: Record<string, unknown>,
  columns: readonly ColumnInfo[],
  toast: unknown,
  keepMissing = true,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, typeOid } of columns) {
    let v = row[name];
    if (v === undefined) {
      if (!keepMissing) continue;
      v = toast ?? null;
    } else if ((typeOid === 20 || typeOid === 26) && typeof v === 'string') {
      const n = Number(v);
      if (Number.isSafeInteger(n)) v = n;
    } else if (Buffer.isBuffer(v)) {
      v = v.toString('base64');
    }
    out[name] = v;
  }
  return out;
}

/** A quoted identifier unless the user already quoted it (the reference's `"CaseSensitive"` form). */
export function quoteIdent(name: string): string {
  if (/^".*"$/.test(name)) return name;
  return `"${name.replace(/"/g, '""')}"`;
}

/** The name as PostgreSQL stores it: quoted names keep their case, bare ones are folded to lower case. */
export function storedName(name: string): string {
  if (/^".*"$/.test(name)) return name.slice(1, -1).replace(/""/g, '"');
  return name.toLowerCase();
}
