// The `chunker` scanner: fixed-size pieces of the stream.
import { defineComponent, field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { asBuffer, type ByteSource, type Scanner } from './scanner.js';

/**
 * The piece that spans chunks is kept as a list of views and joined once it is complete: joining
 * the carry to every chunk copied it again per chunk, quadratic in `size`.
 */
export function splitChunks(size: number): Scanner {
  return async function* chunk(source: ByteSource) {
    let pieces: Buffer[] = [];
    let carried = 0;
    for await (const raw of source) {
      const buf = asBuffer(raw);
      const out: Message[] = [];
      let start = 0;
      if (carried > 0) {
        const need = size - carried;
        if (buf.length < need) {
          pieces.push(buf);
          carried += buf.length;
          continue;
        }
        pieces.push(buf.subarray(0, need));
        out.push(new Message(Buffer.concat(pieces, size)));
        pieces = [];
        carried = 0;
        start = need;
      }
      while (buf.length - start >= size) {
        out.push(new Message(buf.subarray(start, start + size)));
        start += size;
      }
      if (start < buf.length) {
        pieces.push(buf.subarray(start));
        carried = buf.length - start;
      }
      if (out.length > 0) yield out;
    }
    if (carried > 0) yield [new Message(Buffer.concat(pieces, carried))];
  };
}

export const spec = defineComponent({
  name: 'chunker',
  kind: 'scanner',
  status: 'stable',
  summary: 'Splits a byte stream into messages of a fixed size; the last one may be shorter.',
  description:
    'Every message is exactly `size` bytes except possibly the last, which holds what is left when the stream ends. Useful for binary streams with fixed-size records, or to cut a large object into pieces.',
  fields: [field.int('size', 'The size of each message in bytes.', { examples: [1024] })],
  lint: (config) => (config.size > 0 ? [] : ['size must be greater than 0']),
  examples: [
    {
      title: 'A binary file in 1 KiB pieces',
      config: `input:
  file:
    paths: [ ./blob.bin ]
    scanner:
      chunker:
        size: 1024
output:
  drop: {}
`,
    },
  ],
  build: (config) => splitChunks(config.size),
});
