// Fast paths of stream creation: the simple-YAML parser must build what the yaml composer builds
// (values, lines, lints), and compiled mappings shared by text must not share state.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LineCounter, parseDocument } from 'yaml';
import { parseMapping } from '../../src/bloblang/index.js';
import { parseSimpleYaml } from '../../src/config/fast_yaml.js';
import { Message } from '../../src/message/message.js';
import type { StreamsService } from '../../src/streams/service.js';
import { json, send, startService } from './support.js';

const OPTIONS = { prettyErrors: false, strict: false };

const SIMPLE = [
  'input:\n  generate:\n    interval: 1s\n    mapping: \'root = "tick"\'\noutput:\n  drop: {}\n',
  'pipeline:\n  threads: -1\n  processors:\n  - mapping: \'root = this\'\n    label: x\n  -   log:\n        level: INFO\n  - bloblang: "root = 5"\nx: []',
  "a:\n  - ~\n  - 1.50\n  - 0x1f\n  - true\n  - 'it''s'\n  - 127.0.0.1:80\n  - b: c\n    d:\n    - e\ng: h\n",
];

const NOT_SIMPLE = [
  'a: 1 # comment\n',
  'a: 1\n\nb: 2\n',
  'a: &x 1\nb: *x\n',
  'a: |\n  text\n',
  'a: 1\na: 2\n',
  'a:\nb: 1\n',
  'a: plain\n  continued\n',
  '{"a": 1}',
  'a: "esc\\n"\n',
  'a: 1 \n',
];

/** Every node as class, value, style and range: what a consumer of the document can observe. */
function shape(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const n = node as Record<string, unknown>;
  const items = Array.isArray(n.items) ? n.items.map(shape) : undefined;
  return {
    class: n.constructor.name,
    key: shape(n.key),
    value: 'key' in n ? shape(n.value) : n.value,
    items,
    range: n.range,
    type: n.type,
    source: n.source,
    format: n.format,
    flow: n.flow,
  };
}

describe('simple YAML fast path', () => {
  it('builds the nodes, ranges and line table the yaml composer builds', () => {
    for (const text of SIMPLE) {
      const fastLines = new LineCounter();
      const fast = parseSimpleYaml(text, fastLines, OPTIONS);
      assert.ok(fast, `expected the fast path to accept ${JSON.stringify(text)}`);
      const fullLines = new LineCounter();
      const full = parseDocument(text, { ...OPTIONS, lineCounter: fullLines });
      assert.deepEqual(shape(fast.contents), shape(full.contents), text);
      assert.deepEqual(fast.range, full.range, text);
      assert.deepEqual(fastLines.lineStarts, fullLines.lineStarts, text);
      assert.deepEqual(fast.toJS(), full.toJS(), text);
    }
  });

  it('leaves everything outside the subset to the full parser', () => {
    for (const text of NOT_SIMPLE) {
      const lines = new LineCounter();
      assert.equal(parseSimpleYaml(text, lines, OPTIONS), undefined, JSON.stringify(text));
      assert.deepEqual(lines.lineStarts, [], 'the line table is untouched when the text is refused');
    }
  });
});

describe('stream creation fast paths over HTTP', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(async () => {
    await svc.stop();
  });

  it('lints a simple YAML body with the lines of the fields at fault', async () => {
    const body =
      "input:\n  generate:\n    interval: 1s\n    mapping: 'root = '\n    nope: 1\noutput:\n  drop: {}\n";
    const r = await send(svc, 'POST', '/streams/lints', body, { 'Content-Type': 'application/yaml' });
    assert.equal(r.status, 400);
    const lints = (json(r) as { linting_errors: string[] }).linting_errors;
    assert.equal(lints.length, 2, r.body);
    assert.match(lints[0]!, /^\(4,1\) field mapping: /);
    assert.equal(lints[1], '(5,1) field nope not recognised');
  });

  it('creates streams from a simple YAML body and reads the config back', async () => {
    const body =
      'input:\n  generate:\n    interval: 1h\n    count: 0x1\n    mapping: \'root = "a"\'\noutput:\n  drop: {}\n';
    assert.equal((await send(svc, 'POST', '/streams/fast_a', body)).status, 200);
    const got = json(await send(svc, 'GET', '/streams/fast_a')) as { config: Record<string, unknown> };
    assert.deepEqual(got.config.input, { generate: { interval: '1h', count: 1, mapping: 'root = "a"' } });
  });
});

describe('compiled mapping cache', () => {
  const one = (m: ReturnType<typeof parseMapping>) => m.query([new Message('{}')], 0);

  it('gives each parse its own state even when the program is shared', () => {
    const a = parseMapping('root = counter()');
    const b = parseMapping('root = counter()');
    assert.equal(one(a), 1);
    assert.equal(one(a), 2);
    assert.equal(one(b), 1, 'a second mapping with the same text starts its own counter');
  });

  it('never reuses a mapping that imports a file: the file is read again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nekton-map-cache-'));
    writeFileSync(join(dir, 'lib.blobl'), 'map v {\n  root = "first"\n}\n');
    const text = 'import "./lib.blobl"\nroot = this.apply("v")';
    assert.equal(one(parseMapping(text, { importDir: dir })), 'first');
    writeFileSync(join(dir, 'lib.blobl'), 'map v {\n  root = "second"\n}\n');
    assert.equal(one(parseMapping(text, { importDir: dir })), 'second');
  });

  it('does not cache a mapping that fails to parse', () => {
    assert.throws(() => parseMapping('root = '));
    assert.throws(() => parseMapping('root = '));
  });
});
