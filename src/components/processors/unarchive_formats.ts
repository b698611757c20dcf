// How `unarchive` breaks one message into many, per format. Every new message is a copy of the
// original (metadata included) with new content; any failure throws and fails the whole message.
import { readCsv } from '../../bloblang/methods/parsing_csv.js';
import { stringifyJson } from '../../message/json.js';
import type { Message } from '../../message/message.js';
import { scanJsonDocuments } from '../scanners/json_documents.js';
import { deserialiseParts } from './archive_binary.js';
import type { ArchiveEntry } from './archive_entries.js';
import { readTar } from './archive_tar.js';
import { readZip } from './archive_zip.js';

export type Unarchiver = (msg: Message) => Message[] | Promise<Message[]>;

const withBytes = (msg: Message, bytes: Uint8Array): Message => {
  const out = msg.copy();
  out.setBytes(bytes);
  return out;
};

/**
 * A copy holding a JSON value. A string is written as JSON text (quoted), as the reference writes
 * every element it extracts: a message holding a string structure would read as the bare text.
 */
const withValue = (msg: Message, value: unknown): Message => {
  const out = msg.copy();
  if (typeof value === 'string') out.setBytes(stringifyJson(value));
  else out.setStructured(value);
  return out;
};

/** Entries of a tar or zip, each with its name in `archive_filename`. */
const files = (msg: Message, entries: ArchiveEntry[]): Message[] =>
  entries.map(({ name, data }) => {
    const out = withBytes(msg, data);
    out.setMeta('archive_filename', name);
    return out;
  });

/** The type name the reference's errors give a parsed JSON value. */
function goType(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  if (typeof value === 'number' || typeof value === 'bigint') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

function parsed(msg: Message, what: string): unknown {
  try {
    return msg.structured();
  } catch (err) {
    throw new Error(`failed to parse message into JSON ${what}: ${(err as Error).message}`);
  }
}

function linesOf(msg: Message): Message[] {
  const content = msg.bytes();
  // A view, not a copy: each line is a slice of the original content.
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const out: Message[] = [];
  let start = 0;
  // Every newline ends a part, so a trailing newline leaves an empty last part (as the reference).
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, start)) {
    out.push(withBytes(msg, bytes.subarray(start, at)));
    start = at + 1;
  }
  out.push(withBytes(msg, bytes.subarray(start)));
  return out;
}

function jsonArray(msg: Message): Message[] {
  const doc = parsed(msg, 'array');
  if (!Array.isArray(doc))
    throw new Error(`failed to parse message into JSON array: invalid type '${goType(doc)}'`);
  return doc.map((element) => withValue(msg, element));
}

function jsonMap(msg: Message): Message[] {
  const doc = parsed(msg, 'map');
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new Error(`failed to parse message into JSON map: invalid type '${goType(doc)}'`);
  }
  const map = doc as Record<string, unknown>;
  // The reference's order is random; sorted keys keep the output stable.
  return Object.keys(map)
    .sort()
    .map((key) => {
      const out = withValue(msg, map[key]);
      out.setMeta('archive_key', key);
      return out;
    });
}

async function jsonDocuments(msg: Message): Promise<Message[]> {
  const out: Message[] = [];
  async function* once() {
    yield msg.bytes();
  }
  try {
    for await (const docs of scanJsonDocuments(once(), {})) {
      for (const doc of docs) out.push(withValue(msg, doc.structured()));
    }
  } catch (err) {
    throw new Error(`failed to parse message as JSON documents: ${(err as Error).message}`);
  }
  return out;
}

function csvRows(delimiter: string): Unarchiver {
  return (msg) => {
    let rows: string[][];
    try {
      rows = readCsv(msg.text(), { delimiter, lazyQuotes: false });
    } catch (err) {
      throw new Error(`failed to parse message as csv: ${(err as Error).message}`);
    }
    const [header, ...records] = rows;
    if (header === undefined) return [];
    // fromEntries defines own properties: a column named `__proto__` stays a column.
    return records.map((record) => withValue(msg, Object.fromEntries(record.map((v, i) => [header[i], v]))));
  };
}

/** The unarchiver for a format, or an error naming what is wrong with it. */
export function unarchiverFor(format: string, zipLimit: () => number): Unarchiver {
  switch (format) {
    case 'tar':
      return async (msg) => files(msg, await readTar(msg.bytes()));
    case 'zip': {
      const limit = zipLimit();
      return async (msg) => files(msg, await readZip(msg.bytes(), limit));
    }
    case 'binary':
      return (msg) => deserialiseParts(msg.bytes()).map((part) => withBytes(msg, part));
    case 'lines':
      return linesOf;
    case 'json_documents':
      return jsonDocuments;
    case 'json_array':
      return jsonArray;
    case 'json_map':
      return jsonMap;
    case 'csv':
      return csvRows(',');
  }
  if (format.startsWith('csv:')) {
    const delimiter = [...format.slice(4)];
    if (delimiter.length === 0) throw new Error('csv format requires a non-empty delimiter');
    if (delimiter.length !== 1) throw new Error('csv format requires a single character delimiter');
    const [d] = delimiter as [string];
    if (d === '\r' || d === '\n' || d === '"' || d === '\ufffd') {
      throw new Error(`csv format cannot use ${JSON.stringify(d)} as its delimiter`);
    }
    return csvRows(d);
  }
  throw new Error(`archive format not recognised: ${format}`);
}
