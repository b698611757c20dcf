// The `chunker` scanner: fixed-size pieces of the stream.
import { field } from '../../config/spec.js';
import { Message } from '../../message/message.js';
import { asBuffer, type ByteSource, type Scanner, type ScannerSpec } from './scanner.js';

export interface ChunkerConfig {
  size: number;
}

export function splitChunks(size: number): Scanner {
  return async function* chunk(source: ByteSource) {
    let carry: Buffer | null = null;
    for await (const raw of source) {
      let buf = asBuffer(raw);
      if (carry !== null) {
        buf = Buffer.concat([carry, buf]);
        carry = null;
      }
      const out: Message[] = [];
      let start = 0;
      while (buf.length - start >= size) {
        out.push(new Message(buf.subarray(start, start + size)));
        start += size;
      }
      if (start < buf.length) carry = buf.subarray(start);
      if (out.length > 0) yield out;
    }
    if (carry !== null) yield [new Message(carry)];
  };
}

export const spec: ScannerSpec<ChunkerConfig> = {
  name: 'chunker',
  kind: 'scanner',
  status: 'stable',
  summary: 'Splits a byte stream into messages of a fixed size; the last one may be shorter.',
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
};
