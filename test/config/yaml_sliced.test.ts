// parseYamlSliced (big API bodies) must read every text exactly as parseYaml does: the same
// document (values, node ranges, styles), the same line table, the same errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import { parseYamlSliced } from '../../src/config/yaml_sliced.js';
import { TimeSlicer } from '../../src/engine/time_slicer.js';

/** Every node as class, value, style and range: what a reader of the document can observe. */
function shape(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const n = node as Record<string, unknown>;
  return {
    class: n.constructor.name,
    key: shape(n.key),
    value: 'key' in n ? shape(n.value) : n.value,
    items: Array.isArray(n.items) ? n.items.map(shape) : undefined,
    range: n.range,
    type: n.type,
    source: n.source,
    format: n.format,
    flow: n.flow,
    comment: n.comment,
  };
}

const bigJson = JSON.stringify(
  {
    input: { generate: { mapping: 'root = "x"' } },
    pipeline: {
      processors: Array.from({ length: 3000 }, (_, i) => ({ mapping: `root.n = ${i}\nroot.s = "\\u00e9"` })),
    },
  },
  null,
  2,
);

const TEXTS = [
  bigJson,
  '{"a": [1, 2.50, true, null, "x\\ny"], "b": {}}',
  'a: 1 # comment\nb: |\n  text\n  more\nc: &x [1, 2]\nd: *x\n',
  'a: 1\n---\nb: 2\n',
  '{"a": [1, 2}',
  'a: 1\na: 2\n',
  'a:\n  - b\n - c\n',
];

/** The parse's outcome: its shape, values and lines, or its error message. */
async function outcome(parse: () => unknown): Promise<unknown> {
  try {
    const parsed = (await parse()) as ReturnType<typeof parseYaml>;
    return {
      contents: shape(parsed.doc.contents),
      value: yamlToValue(parsed),
      lines: parsed.lines.lineStarts,
      errors: parsed.doc.errors.length,
    };
  } catch (err) {
    return { error: String(err) };
  }
}

describe('parseYamlSliced', () => {
  it('reads every text as parseYaml does, errors included', async () => {
    for (const text of TEXTS) {
      // A zero-length slice pauses at every look at the clock: the most interleaved run.
      const sliced = await outcome(() => parseYamlSliced(text, new TimeSlicer(0)));
      assert.deepEqual(sliced, await outcome(() => parseYaml(text)), text.slice(0, 80));
    }
  });

  it('lets timers run while it reads a big body', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      await parseYamlSliced(bigJson.repeat(1), new TimeSlicer(0));
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks > 0, 'no timer ran while the body was read');
  });
});
