// Parsing/formatting of text formats: CSV, URLs, form bodies, YAML and logfmt.
import { Document, isMap, isScalar, isSeq, parse as parseYamlText, type Node as YamlNode } from 'yaml';
import { Timestamp, type Value } from '../library.js';
import {
  bytesToString,
  formatTimestamp,
  isObject,
  setKey,
  stringToBytes,
  type ValueObject,
} from '../value.js';
import { readCsv } from './parsing_csv.js';
import { parseGoUrl } from './parsing_url.js';
import { urlUnescape } from './strings.js';
import { argString, fail, method, p, simpleMethod, targetString } from './support.js';

method(
  'parse_csv',
  [
    p.bool('parse_header_row', { default: true }),
    p.str('delimiter', { default: ',' }),
    p.bool('lazy_quotes', { default: false }),
  ],
  (t, a) => {
    const header = a[0] !== false;
    const delimiter = a[1] === undefined ? ',' : argString(a, 1);
    if (Array.from(delimiter).length !== 1) throw fail('delimiter value must be exactly one character');
    const rows = readCsv(targetString(t), { delimiter, lazyQuotes: a[2] === true });
    if (!header) return rows;
    if (rows.length === 0) return [];
    const [keys, ...body] = rows;
    return body.map((row) => {
      const o: ValueObject = {};
      for (let i = 0; i < keys.length; i++) setKey(o, keys[i], row[i]);
      return o;
    });
  },
);

simpleMethod('parse_url', (t) => parseGoUrl(targetString(t)));

simpleMethod('parse_form_url_encoded', (t) => {
  const out: ValueObject = {};
  // Repeated keys gather into one array, grown in place: copying it per value was quadratic.
  const lists = new Map<string, Value[]>();
  const text = targetString(t);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    if (pair.includes(';')) throw fail('invalid semicolon separator in query');
    const eq = pair.indexOf('=');
    const key = urlUnescape(eq < 0 ? pair : pair.slice(0, eq), 'query');
    const value = eq < 0 ? '' : urlUnescape(pair.slice(eq + 1), 'query');
    if (!Object.hasOwn(out, key)) {
      setKey(out, key, value);
      continue;
    }
    let list = lists.get(key);
    if (!list) {
      list = [out[key] as Value];
      lists.set(key, list);
      setKey(out, key, list);
    }
    list.push(value);
  }
  return out;
});

// YAML ---------------------------------------------------------------------------

/** YAML nodes to Bloblang values: big integers stay exact, keys become strings. */
function fromYaml(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (v instanceof Date) return new Timestamp(BigInt(v.getTime()) * 1_000_000n, 'UTC');
  if (v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(fromYaml);
  if (v instanceof Map) {
    const o: ValueObject = {};
    for (const [k, e] of v) setKey(o, typeof k === 'string' ? k : String(k), fromYaml(e));
    return o;
  }
  if (typeof v === 'object') {
    const o: ValueObject = {};
    for (const [k, e] of Object.entries(v)) setKey(o, k, fromYaml(e));
    return o;
  }
  return v as Value;
}

simpleMethod('parse_yaml', (t) => {
  try {
    return fromYaml(parseYamlText(targetString(t), { intAsBigInt: true, uniqueKeys: false }));
  } catch (e) {
    throw fail(`failed to parse value as YAML: ${(e as Error).message.split('\n')[0]}`);
  }
});

/** Plain data for the YAML writer: sorted keys like Go's map ordering, bytes/timestamps as text. */
function toYamlData(v: Value): unknown {
  if (v instanceof Uint8Array) return bytesToString(v);
  if (v instanceof Timestamp) return formatTimestamp(v);
  if (Array.isArray(v)) return v.map(toYamlData);
  if (isObject(v)) {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) o[k] = toYamlData(v[k]);
    return o;
  }
  return v;
}

function indentSequences(node: YamlNode | null): void {
  if (isMap(node)) for (const pair of node.items) indentSequences(pair.value as YamlNode);
  else if (isSeq(node)) for (const item of node.items) indentSequences(item as YamlNode);
  else if (isScalar(node)) return;
}

simpleMethod('format_yaml', (t) => {
  const doc = new Document(toYamlData(t));
  indentSequences(doc.contents as YamlNode);
  return stringToBytes(doc.toString({ indent: 4, indentSeq: true, lineWidth: 0 }));
});

// logfmt -------------------------------------------------------------------------

const LOGFMT_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/' };

simpleMethod('parse_logfmt', (t) => {
  const s = targetString(t);
  const out: ValueObject = {};
  let i = 0;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  while (i < s.length) {
    while (i < s.length && (isSpace(s[i]) || s[i] === '=')) i++;
    if (i >= s.length) break;
    const keyStart = i;
    while (i < s.length && !isSpace(s[i]) && s[i] !== '=' && s[i] !== '"') i++;
    const key = s.slice(keyStart, i);
    if (key === '') {
      i++;
      continue;
    }
    if (s[i] !== '=') {
      setKey(out, key, true);
      continue;
    }
    i++;
    if (s[i] === '"') {
      i++;
      let value = '';
      let closed = false;
      while (i < s.length) {
        const c = s[i];
        if (c === '"') {
          closed = true;
          i++;
          break;
        }
        if (c === '\\' && i + 1 < s.length) {
          const e = s[i + 1];
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
            value += String.fromCharCode(Number.parseInt(s.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          value += LOGFMT_ESCAPES[e] ?? e;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      if (!closed) throw fail(`logfmt: unterminated quoted value for key ${JSON.stringify(key)}`);
      setKey(out, key, value);
      continue;
    }
    const valueStart = i;
    while (i < s.length && !isSpace(s[i])) i++;
    setKey(out, key, s.slice(valueStart, i));
  }
  return out;
});
