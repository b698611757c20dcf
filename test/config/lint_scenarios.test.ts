// The lint strings that spec §9 quotes byte-for-byte (scenarios 18, 20, 40, 71).
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readComponentBody, readStreamBody, readStreamsBody } from '../../src/config/api_body.js';
import { loadStreamFile } from '../../src/config/loader.js';
import { acceptAllBloblang, lintOptions, provider } from './helpers.js';

const scenario18 = [
  '{',
  '\t"input": {',
  '\t\t"generate": {',
  '\t\t\t"mapping": "root = deleted()"',
  '\t\t}',
  '\t},',
  '\t"output": {',
  '\t\t"type":"drop",',
  '\t\t"inproc": "meow"',
  '\t},',
  '\t"cache_resources": [',
  '\t\t{"label":"not_interested","memory":{}}',
  '\t]',
  '}',
].join('\n');

const scenario20 = [
  '{',
  '\t"foo": {',
  '\t\t"input": {',
  '\t\t\t"generate": {',
  '\t\t\t\t"mapping": "root = deleted()"',
  '\t\t\t}',
  '\t\t},',
  '\t\t"output": {',
  '\t\t\t"type":"drop",',
  '\t\t\t"inproc": "meow"',
  '\t\t}',
  '\t},',
  '\t"bar": {',
  '\t\t"input": {',
  '\t\t\t"generate": {',
  '\t\t\t\t"mapping": "root = deleted()"',
  '\t\t\t},',
  '\t\t\t"type": "inproc"',
  '\t\t},',
  '\t\t"output": {',
  '\t\t\t"drop": {}',
  '\t\t}',
  '\t}',
  '}',
].join('\n');

describe('lint strings quoted by the spec', () => {
  it('scenario 18: tab-indented JSON stream body', () => {
    const result = readStreamBody(scenario18, lintOptions);
    assert.deepEqual(result, {
      ok: false,
      lints: [
        '(9,1) field inproc is invalid when the component type is drop (output)',
        '(11,1) field cache_resources not recognised',
      ],
    });
  });

  it('scenario 19: the same body chilled converts and ignores the resources section', () => {
    const result = readStreamBody(scenario18, { ...lintOptions, chilled: true });
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.config.output.type, 'drop');
    assert.equal(result.config.input.type, 'generate');
  });

  it('scenario 20: bulk body, lines relative to the whole body, prefixed with the stream id', () => {
    const result = readStreamsBody(scenario20, lintOptions);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(
      new Set(result.lints),
      new Set([
        "stream 'foo': (10,1) field inproc is invalid when the component type is drop (output)",
        "stream 'bar': (15,1) field generate is invalid when the component type is inproc (input)",
      ]),
    );
  });

  it('scenario 21: bulk body chilled yields both streams', () => {
    const result = readStreamsBody(scenario20, { ...lintOptions, chilled: true });
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.deepEqual([...result.config.keys()], ['foo', 'bar']);
    assert.equal(result.config.get('bar')?.config.input.type, 'inproc');
  });

  const resources: [string, 'cache' | 'input' | 'output' | 'processor' | 'rate_limit', string][] = [
    ['cache', 'cache', 'memory:\n  default_ttl: 123s\n  nope: nah\n  compaction_interval: 1s'],
    ['input', 'input', 'generate:\n  mapping: root = deleted()\n  nope: nah'],
    ['output', 'output', 'retry:\n  output:\n    drop: {}\n  nope: nah'],
    ['processor', 'processor', 'split:\n  size: 10\n  nope: nah'],
    ['rate_limit', 'rate_limit', 'local:\n  count: 10\n  nope: nah'],
  ];
  const expectedLine: Record<string, number> = { cache: 3, input: 3, output: 4, processor: 3, rate_limit: 3 };
  for (const [title, kind, body] of resources) {
    it(`scenario 40: ${title} resource body`, () => {
      assert.deepEqual(readComponentBody(body, kind, lintOptions), {
        ok: false,
        lints: [`(${expectedLine[title]},1) field nope not recognised`],
      });
    });
    it(`scenario 41: ${title} resource body chilled converts`, () => {
      const result = readComponentBody(body, kind, { ...lintOptions, chilled: true });
      assert.equal(result.ok, true);
    });
  }

  it('scenario 71: stream file lints carry the path immediately followed by the position', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-config-'));
    const first = join(dir, 'first.yaml');
    const second = join(dir, 'second.yaml');
    await writeFile(
      first,
      'input:\n  generate:\n    mapping: root = "x"\n  meow1: nope\noutput:\n  drop: {}\n',
    );
    await writeFile(
      second,
      'input:\n  generate:\n    mapping: root = "x"\noutput:\n  drop: {}\ncache_resources:\n  - label: foo\n    memory: {}\n',
    );
    const a = await loadStreamFile(first, { provider, bloblang: acceptAllBloblang, env: {} });
    const b = await loadStreamFile(second, { provider, bloblang: acceptAllBloblang, env: {} });
    assert.deepEqual(a.lints, [
      `${first}(4,1) field meow1 is invalid when the component type is generate (input)`,
    ]);
    assert.deepEqual(b.lints, [`${second}(6,1) field cache_resources not recognised`]);
    assert.ok(b.lints[0]!.includes('/second.yaml(6,1) field cache_resources not recognised'));
  });
});
