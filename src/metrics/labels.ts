// Label sets rendered the way the reference's json_api/stats keys are: names sorted, values quoted like
// Go's strconv.QuoteToASCII. The rendered text doubles as the identity of a series within its metric.

export type Labels = Readonly<Record<string, string>>;

/** `{a="x",b="y"}` with names sorted, or `` for no labels. */
export function renderLabels(labels: Labels): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return '';
  return `{${names.map((name) => `${name}=${quoteAscii(labels[name])}`).join(',')}}`;
}

/** Returns labels as a new object whose keys are in sorted order (exposition prints them in key order). */
export function sortLabels(labels: Labels): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const name of Object.keys(labels).sort()) sorted[name] = labels[name];
  return sorted;
}

const SHORT_ESCAPES: Record<number, string> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
};

/** Go's strconv.QuoteToASCII: printable ASCII kept, everything else escaped. */
export function quoteAscii(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) as number;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (code >= 0x20 && code < 0x7f) out += char;
    else if (code in SHORT_ESCAPES) out += SHORT_ESCAPES[code];
    else if (code < 0x80) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
