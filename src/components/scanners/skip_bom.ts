// The `skip_bom` scanner: drops a leading UTF-8 byte order mark, then hands over to `into`.
import { defineComponent } from '../../config/spec.js';
import { buildScanner } from './build.js';
import { asBuffer, type ByteSource, type Scanner, scannerField } from './scanner.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The source without its leading BOM (checked across chunk boundaries). */
export async function* withoutBom(source: ByteSource): AsyncIterable<Buffer> {
  let head: Buffer = Buffer.alloc(0);
  let decided = false;
  for await (const raw of source) {
    const chunk = asBuffer(raw);
    if (decided) {
      yield chunk;
      continue;
    }
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    if (head.length < BOM.length && BOM.subarray(0, head.length).equals(head)) continue;
    decided = true;
    const rest = head.subarray(0, BOM.length).equals(BOM) ? head.subarray(BOM.length) : head;
    if (rest.length > 0) yield rest;
  }
  if (!decided && head.length > 0) yield head;
}

export function skipBom(into: Scanner): Scanner {
  return (source, details) => into(withoutBom(source), details);
}

export const spec = defineComponent({
  name: 'skip_bom',
  kind: 'scanner',
  status: 'stable',
  summary: 'Removes a leading UTF-8 byte order mark, then scans the rest with another scanner.',
  description:
    'Streams written by some Windows tools begin with the bytes EF BB BF; this scanner drops them when present and hands the rest of the stream to `into`, which reads it as usual.',
  fields: [
    scannerField('into', 'The scanner that reads the stream after the BOM.', {
      default: { to_the_end: {} },
    }),
  ],
  examples: [
    {
      title: 'CSV files written by spreadsheet tools',
      config: `input:
  file:
    paths: [ ./export.csv ]
    scanner:
      skip_bom:
        into:
          csv: {}
output:
  stdout: {}
`,
    },
  ],
  build: async (config, ctx) => skipBom(await buildScanner(config.into, ctx, `${ctx.path}.skip_bom.into`)),
});
