// Shared pieces of the fuzz tests: the seeded PRNG, generators of adversarial text, and raw sockets.
import { connect, type Socket } from 'node:net';

export { countFromEnv, prng, seedFromEnv } from '../faults/support.js';

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

export function int(random: Random, max: number): number {
  return Math.floor(random() * max);
}

/** Random bytes, often not valid UTF-8. */
export function randomBytes(random: Random, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = int(random, 256);
  return out;
}

const PIECES = [
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '"',
  "'",
  '\n',
  '  ',
  '\t',
  '- ',
  '&a ',
  '*a',
  '!!binary ',
  '!!js/function ',
  '<<: ',
  '#',
  '%YAML 1.2\n',
  '---\n',
  '...\n',
  '|\n',
  '>-\n',
  '? ',
  '${',
  '${!',
  '}',
  'input',
  'output',
  'pipeline',
  'processors',
  'generate',
  'mapping',
  'root = this',
  'drop',
  'null',
  'true',
  '1e999',
  '-0',
  '0x1F',
  '\u0000',
  '\uFFFD',
  '\uD800',
  'é',
  '🦀',
  '\\u0000',
];

/** Text built from YAML/JSON/config tokens: hits the parser's corners more than random bytes. */
export function tokenSoup(random: Random, tokens: number): string {
  let out = '';
  for (let i = 0; i < tokens; i++) out += pick(random, PIECES);
  return out;
}

/** Mutates a valid document: flip, drop, duplicate or insert characters. */
export function mutate(random: Random, text: string, edits: number): string {
  let s = text;
  for (let i = 0; i < edits; i++) {
    const at = int(random, s.length + 1);
    switch (int(random, 4)) {
      case 0:
        s = s.slice(0, at) + s.slice(at + 1);
        break;
      case 1:
        s = s.slice(0, at) + pick(random, PIECES) + s.slice(at);
        break;
      case 2:
        s = s.slice(0, at) + s.slice(at, at + int(random, 20)) + s.slice(at);
        break;
      default:
        s = s.slice(0, at) + String.fromCharCode(int(random, 0x3000)) + s.slice(at + 1);
    }
  }
  return s;
}

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` deep. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** The billion-laughs pattern: each level references the previous one ten times. */
export function yamlAliasBomb(levels: number): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < levels; i++) {
    const refs = Array.from({ length: 10 }, () => `*a${i - 1}`).join(',');
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  return `${lines.join('\n')}\n`;
}

export interface RawReply {
  /** The first response line, e.g. `HTTP/1.1 400 Bad Request`, or '' if none came. */
  statusLine: string;
  /** True when the server closed the connection. */
  closed: boolean;
}

/** Writes raw bytes, collects the reply until the server closes or timeoutMs passes. */
export function rawRequest(
  port: number,
  chunks: Array<Buffer | string>,
  timeoutMs = 3000,
): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let data = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ statusLine: data.split('\r\n')[0] ?? '', closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (d) => {
      data += d.toString('latin1');
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
    });
  });
}
