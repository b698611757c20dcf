// `string_split`: replaces each message with the array of the parts of its content between delimiters.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { perMessage } from '../../engine/processor_helpers.js';

/** Splits like Go's bytes.Split: an empty delimiter splits into UTF-8 characters. */
export function splitBytes(content: Buffer, delimiter: Buffer): Buffer[] {
  if (delimiter.length === 0) {
    const parts: Buffer[] = [];
    const text = content.toString('utf8');
    // Go splits after each UTF-8 sequence; invalid bytes become one part each.
    let at = 0;
    for (const ch of text) {
      const len = Buffer.byteLength(ch);
      parts.push(content.subarray(at, at + len));
      at += len;
    }
    return parts;
  }
  const parts: Buffer[] = [];
  let start = 0;
  for (;;) {
    const found = content.indexOf(delimiter, start);
    if (found < 0) break;
    parts.push(content.subarray(start, found));
    start = found + delimiter.length;
  }
  parts.push(content.subarray(start));
  return parts;
}

export const spec = defineComponent({
  name: 'string_split',
  kind: 'processor',
  status: 'stable',
  categories: ['Parsing'],
  summary: 'Splits a string by a delimiter into an array.',
  description:
    'The content of each message becomes a JSON array of the parts between delimiters (an empty delimiter splits it into characters). Parts are strings unless `emit_bytes` is set, and empty parts become `null` with `empty_as_null`.',
  fields: [
    field.string('delimiter', 'The delimiter to split the string by.', { default: '\n' }),
    field.bool('emit_bytes', 'When true, the output will be bloblang bytes instead of strings.', {
      default: false,
      advanced: true,
    }),
    field.bool('empty_as_null', 'When true, empty strings resulting from the split are converted to null.', {
      default: false,
    }),
  ],
  examples: [
    {
      title: 'Comma separated values to an array',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "a,b,,c"'
pipeline:
  processors:
    - string_split:
        delimiter: ','
        empty_as_null: true
output:
  stdout: {}
`,
    },
  ],
  build: (config): Processor => {
    const delimiter = Buffer.from(config.delimiter, 'utf8');
    return {
      process: perMessage((msg) => {
        const bytes = msg.bytes();
        const content = Buffer.isBuffer(bytes)
          ? bytes
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        const parts = splitBytes(content, delimiter).map((part): unknown => {
          if (config.empty_as_null && part.length === 0) return null;
          return config.emit_bytes ? Buffer.from(part) : part.toString('utf8');
        });
        const out = msg.copy();
        out.setStructured(parts);
        return out;
      }),
      close: async () => {},
    };
  },
});
