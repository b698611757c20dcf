// The `json_documents` scanner: a stream of concatenated JSON values, one message each.
import { StringDecoder } from 'node:string_decoder';
import { Message } from '../../message/message.js';
import { type ByteSource, type Scanner, type ScannerSpec, scanned } from './scanner.js';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Index just past the JSON value starting at `from`, or -1 when the text ends inside it. */
function valueEnd(text: string, from: number, final: boolean): number {
  const first = text.charCodeAt(from);
  if (first === 0x7b || first === 0x5b || first === 0x22) {
    let depth = 0;
    let inString = false;
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) {
          inString = false;
          if (depth === 0) return i + 1;
        }
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null ends at whitespace or the start of the next document.
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 0x7b || c === 0x5b || c === 0x22) return i;
  }
  return final ? text.length : -1;
}

export const scanJsonDocuments: Scanner = async function* jsonDocuments(source: ByteSource) {
  const decoder = new StringDecoder('utf8');
  let text = '';
  const take = (out: Message[], final: boolean): void => {
    let pos = 0;
    while (true) {
      while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
      if (pos >= text.length) break;
      const end = valueEnd(text, pos, final);
      if (end < 0) break;
      out.push(Message.fromStructured(JSON.parse(text.slice(pos, end))));
      pos = end;
    }
    text = text.slice(pos);
    if (final && text.trim() !== '') throw new SyntaxError('unexpected end of JSON input');
  };
  for await (const raw of source) {
    text += typeof raw === 'string' ? raw : decoder.write(raw as Buffer);
    yield* scanned((out) => take(out, false));
  }
  text += decoder.end();
  yield* scanned((out) => take(out, true));
};

export const spec: ScannerSpec<Record<string, never>> = {
  name: 'json_documents',
  kind: 'scanner',
  status: 'stable',
  summary: 'Reads a stream of JSON documents (separated by whitespace or nothing), one message per document.',
  fields: [],
  examples: [
    {
      title: 'Newline-delimited JSON from stdin',
      config: `input:
  stdin:
    scanner:
      json_documents: {}
output:
  stdout: {}
`,
    },
  ],
  build: () => scanJsonDocuments,
};
