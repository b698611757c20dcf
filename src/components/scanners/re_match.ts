// The `re_match` scanner: a new message starts wherever the pattern matches.
import { StringDecoder } from 'node:string_decoder';
import { field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { TokenTooLongError } from './lines.js';
import { type ByteSource, type Scanner, type ScannerSpec, scanned } from './scanner.js';

export interface ReMatchConfig {
  pattern: string;
  max_buffer_size: number;
}

/** A JS RegExp from a Go (RE2) pattern: leading `(?ims)` flag groups become JS flags. */
export function goRegExp(pattern: string, flags = ''): RegExp {
  const m = /^\(\?([imsU]+)\)/.exec(pattern);
  let body = pattern;
  let all = flags;
  if (m) {
    body = pattern.slice(m[0].length);
    for (const f of m[1] as string) if (f !== 'U' && !all.includes(f)) all += f;
  }
  return new RegExp(body, all);
}

export function splitOnMatches(pattern: string, maxBufferSize: number): Scanner {
  const regex = goRegExp(pattern, 'g');
  return async function* reMatch(source: ByteSource) {
    const decoder = new StringDecoder('utf8');
    let text = '';
    const cut = (out: Message[], final: boolean): void => {
      let start = 0;
      regex.lastIndex = 0;
      for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
        if (m[0] === '') regex.lastIndex++;
        if (m.index === 0) continue;
        out.push(new Message(text.slice(start, m.index)));
        start = m.index;
      }
      text = text.slice(start);
      if (final && text.length > 0) {
        out.push(new Message(text));
        text = '';
      }
      if (text.length > maxBufferSize) throw new TokenTooLongError(maxBufferSize);
    };
    for await (const raw of source) {
      text += typeof raw === 'string' ? raw : decoder.write(raw as Buffer);
      yield* scanned((out) => cut(out, false));
    }
    text += decoder.end();
    yield* scanned((out) => cut(out, true));
  };
}

export const spec: ScannerSpec<ReMatchConfig> = {
  name: 're_match',
  kind: 'scanner',
  status: 'stable',
  summary: 'Splits a stream into messages that each begin where the pattern matches.',
  description:
    'Useful for multi-line log records: everything from one match up to the next belongs to one message. Text before the first match is a message of its own.',
  fields: [
    field.string('pattern', 'The regular expression marking the start of each message.', {
      examples: ['(?m)^\\d\\d:\\d\\d:\\d\\d'],
    }),
    field.int('max_buffer_size', 'The longest message (in bytes) the scanner accepts.', { default: 65536 }),
  ],
  lint: (config) => {
    try {
      goRegExp(config.pattern);
      return [];
    } catch (err) {
      return [`pattern: ${(err as Error).message}`];
    }
  },
  examples: [
    {
      title: 'Multi-line log records that start with a time',
      config: `input:
  file:
    paths: [ ./app.log ]
    scanner:
      re_match:
        pattern: '(?m)^\\d\\d:\\d\\d:\\d\\d'
output:
  stdout: {}
`,
    },
  ],
  build: (config) => splitOnMatches(config.pattern, config.max_buffer_size),
};
