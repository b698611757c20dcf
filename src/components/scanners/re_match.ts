// The `re_match` scanner: a new message starts wherever the pattern matches.
import { StringDecoder } from 'node:string_decoder';
import { compileConfigPatterns } from '../../config/config_patterns.js';
import { defineComponent, field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { TokenTooLongError } from './lines.js';
import { type ByteSource, type Scanner, scanned } from './scanner.js';

export function splitOnMatches(pattern: string, maxBufferSize: number): Scanner {
  const [regex] = compileConfigPatterns([pattern], 're_match: pattern');
  return async function* reMatch(source: ByteSource) {
    const decoder = new StringDecoder('utf8');
    let text = '';
    const cut = (out: Message[], final: boolean): void => {
      let start = 0;
      for (const [at] of regex.spans(text)) {
        if (at === 0) continue;
        out.push(new Message(text.slice(start, at)));
        start = at;
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

export const spec = defineComponent({
  name: 're_match',
  kind: 'scanner',
  status: 'stable',
  summary: 'Splits a stream into messages that each begin where the pattern matches.',
  description:
    'Useful for multi-line log records: everything from one match up to the next belongs to one message. Text before the first match is a message of its own.',
  fields: [
    field.string('pattern', 'The regular expression marking the start of each message.', {
      regexp: true,
      examples: ['(?m)^\\d\\d:\\d\\d:\\d\\d'],
    }),
    field.int('max_buffer_size', 'The longest message (in bytes) the scanner accepts.', { default: 65536 }),
  ],
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
});
