// The `json_documents` scanner: a stream of concatenated JSON values, one message each.

import { StringDecoder } from 'node:string_decoder';
import { defineComponent } from '../../config/spec.js';
import { parseJson } from '../../message/json.js';
import { Message } from '../../message/message.js';
import { type ByteSource, type Scanner, scanned } from './scanner.js';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Finds where each JSON value ends, one chunk at a time: the state of an unfinished value (depth,
 * inside a string, after a backslash) carries over, so no byte is scanned twice and the text of
 * a value is joined once, when its end is found. Rescanning the whole buffer per chunk was
 * quadratic in the size of a document.
 */
class DocumentSplitter {
  /** Text of the unfinished value from earlier chunks. */
  private parts: string[] = [];
  private inValue = false;
  /** A number, true, false or null: it ends at whitespace or the start of the next document. */
  private bare = false;
  private depth = 0;
  private inString = false;
  /** The first character of the next chunk is escaped by a backslash that ended this one. */
  private escaped = false;

  push(text: string, out: Message[]): void {
    let pos = 0;
    const n = text.length;
    while (pos < n) {
      if (!this.inValue) {
        while (pos < n && isSpace(text.charCodeAt(pos))) pos++;
        if (pos >= n) return;
        this.begin(text.charCodeAt(pos));
      }
      const end = this.bare ? this.bareEnd(text, pos) : this.structuredEnd(text, pos);
      if (end < 0) {
        this.parts.push(text.slice(pos));
        return;
      }
      this.parts.push(text.slice(pos, end));
      this.emit(out);
      pos = end;
    }
  }

  /** Ends the input: a bare value ends with it; a structured one is incomplete. */
  finish(out: Message[]): void {
    if (!this.inValue) return;
    if (!this.bare) throw new SyntaxError('unexpected end of JSON input');
    this.emit(out);
  }

  private begin(first: number): void {
    this.inValue = true;
    this.bare = !(first === 0x7b || first === 0x5b || first === 0x22);
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  private emit(out: Message[]): void {
    const json = this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
    this.parts = [];
    this.inValue = false;
    out.push(Message.fromStructured(parseJson(json)));
  }

  /** Index just past the value's end in `text` from `from`, or -1 when it goes on. */
  private structuredEnd(text: string, from: number): number {
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (c === 0x5c) {
          if (i + 1 >= text.length) this.escaped = true;
          i++;
        } else if (c === 0x22) {
          this.inString = false;
          if (this.depth === 0) return i + 1;
        }
      } else if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) return i + 1;
      }
    }
    return -1;
  }

  private bareEnd(text: string, from: number): number {
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (isSpace(c) || c === 0x7b || c === 0x5b || c === 0x22) return i;
    }
    return -1;
  }
}

export const scanJsonDocuments: Scanner = async function* jsonDocuments(source: ByteSource) {
  const decoder = new StringDecoder('utf8');
  const splitter = new DocumentSplitter();
  for await (const raw of source) {
    const text = typeof raw === 'string' ? raw : decoder.write(raw as Buffer);
    yield* scanned((out) => splitter.push(text, out));
  }
  const rest = decoder.end();
  yield* scanned((out) => {
    splitter.push(rest, out);
    splitter.finish(out);
  });
};

export const spec = defineComponent({
  name: 'json_documents',
  kind: 'scanner',
  status: 'stable',
  summary: 'Reads a stream of JSON documents (separated by whitespace or nothing), one message per document.',
  description:
    'JSON values may follow each other with whitespace between them or none (`{"a":1}{"b":2}`), as newline-delimited JSON does; each becomes one message. Text that is not JSON is an error.',
  fields: [] as const,
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
});
