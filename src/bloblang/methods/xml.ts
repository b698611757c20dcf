// parse_xml and format_xml (the reference's xml plugin methods); parse_xml gives the same shape as the `xml` processor.
import { xmlToStructured } from '../../message/xml.js';
import type { Value } from '../library.js';
import {
  bytesToString,
  isObject,
  stringToBytes,
  TypeMismatchError,
  type ValueObject,
  valueToString,
} from '../value.js';
import { fail, method, p, targetBytes } from './support.js';

method('parse_xml', [p.bool('cast', { optional: true, default: false })], (t, a) => {
  try {
    return xmlToStructured(bytesToString(targetBytes(t)), a[0] === true) as Value;
  } catch (e) {
    throw fail(`parsing value as XML: ${(e as Error).message}`);
  }
});

// format_xml (mxj's Map.Xml / XmlIndent): keys sorted, `-name` keys as attributes, `#text` as the
// element's text, arrays as repeated elements, an empty or null value as `<tag/>`. One key names
// the root element; several are wrapped in `root_tag` (mxj's default: `doc`). Unlike mxj's
// default, text and attribute values are escaped, so the output is always well-formed XML.
const escapeXml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function scalarText(v: Value): string {
  return v === null ? '' : valueToString(v);
}

function element(tag: string, v: Value, indent: string, depth: number, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) element(tag, item, indent, depth, out);
    return;
  }
  const pad = indent === '' ? '' : `\n${indent.repeat(depth)}`;
  const start = out.length === 0 ? '' : pad;
  if (!isObject(v)) {
    const text = scalarText(v);
    out.push(text === '' ? `${start}<${tag}/>` : `${start}<${tag}>${escapeXml(text)}</${tag}>`);
    return;
  }
  const keys = Object.keys(v).sort();
  const attrs = keys.filter((k) => k.startsWith('-') && k.length > 1);
  const children = keys.filter((k) => !k.startsWith('-') && k !== '#text');
  let open = `${start}<${tag}`;
  for (const a of attrs) open += ` ${a.slice(1)}="${escapeXml(scalarText(v[a]!))}"`;
  const text = Object.hasOwn(v, '#text') ? scalarText(v['#text']!) : '';
  if (children.length === 0) {
    out.push(text === '' ? `${open}/>` : `${open}>${escapeXml(text)}</${tag}>`);
    return;
  }
  out.push(`${open}>${escapeXml(text)}`);
  for (const k of children) element(k, v[k]!, indent, depth + 1, out);
  out.push(`${pad}</${tag}>`);
}

export function formatXml(obj: ValueObject, indent: string, rootTag: string | undefined): string {
  const out: string[] = [];
  const keys = Object.keys(obj);
  if (keys.length === 1 && rootTag === undefined) element(keys[0]!, obj[keys[0]!]!, indent, 0, out);
  else element(rootTag ?? 'doc', obj, indent, 0, out);
  return out.join('');
}

method(
  'format_xml',
  [
    p.str('indent', { default: '    ' }),
    p.bool('no_indent', { default: false }),
    p.str('root_tag', { optional: true }),
  ],
  (t, a) => {
    if (!isObject(t)) throw new TypeMismatchError(['object'], t);
    const indent = a[1] === true ? '' : (a[0] as string);
    return stringToBytes(formatXml(t, indent, a[2] as string | undefined));
  },
);
