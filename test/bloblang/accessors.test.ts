// Generated path readers and key writers (accessors.ts) against the shared getPlainField/getField
// rules they stand in for, and the `root.key = ...` statements that use them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { keyWriter, pathReader, plainObjectMaker } from '../../src/bloblang/accessors.js';
import { getField, getPlainField, isPrototypeKey } from '../../src/bloblang/exec.js';
import { parseMapping } from '../../src/bloblang/index.js';
import { Timestamp, type Value } from '../../src/bloblang/library.js';
import { Message } from '../../src/message/message.js';

/** The shared, step-by-step reading the generated readers must match. */
function reference(v: unknown, path: readonly string[]): Value {
  let cur = v as Value;
  for (const k of path) cur = isPrototypeKey(k) ? getField(cur, k) : getPlainField(cur, k);
  return cur;
}

const doc = JSON.parse(
  '{"a":{"b":{"c":1},"list":[10,{"x":"y"}],"__proto__":{"p":2}},"weird key":{"\\"q\\u2028":3},"n":null,"s":"text"}',
) as Value;

describe('pathReader', () => {
  const paths = [
    ['a'],
    ['a', 'b', 'c'],
    ['a', 'b', 'c', 'd'],
    ['a', 'list', '0'],
    ['a', 'list', '1', 'x'],
    ['a', 'list', '2'],
    ['a', 'list', 'length'],
    ['a', '__proto__', 'p'],
    ['a', 'toString'],
    ['a', 'constructor'],
    ['weird key', '"q\u2028'],
    ['n', 'x'],
    ['s', 'length'],
    ['missing', 'deeper'],
  ];
  for (const path of paths) {
    test(`reads ${JSON.stringify(path)} as the shared rules do`, () => {
      assert.deepEqual(pathReader(path)(doc), reference(doc, path));
    });
  }

  test('reads null from bytes and timestamps, whose own fields are not document fields', () => {
    const ts = new Timestamp(5n, 'UTC');
    assert.equal(pathReader(['zone'])(ts), null);
    assert.equal(pathReader(['v', 'byteLength'])({ v: new Uint8Array(3) }), null);
    assert.equal(pathReader(['v', 'zone'])({ v: ts }), null);
  });

  test('gives the same function for the same path', () => {
    assert.equal(pathReader(['a', 'b']), pathReader(['a', 'b']));
  });

  test('sees through objects of different shapes at one site', () => {
    const read = pathReader(['k']);
    const shapes = [
      { k: 1 },
      { a: 0, k: 2 },
      { b: 0, c: 0, k: 3 },
      { d: 0, e: 0, f: 0, k: 4 },
      { k: 5, z: 0 },
    ];
    for (let round = 0; round < 3; round++) {
      assert.deepEqual(
        shapes.map((s) => read(s)),
        [1, 2, 3, 4, 5],
      );
    }
  });
});

describe('keyWriter', () => {
  test('sets own keys, including ones needing quotes', () => {
    const o = plainObjectMaker()();
    keyWriter('plain')(o, 1);
    keyWriter('with "quotes" and \u2028')(o, 2);
    keyWriter('toString')(o, 3);
    assert.deepEqual(Object.entries(o), [
      ['plain', 1],
      ['with "quotes" and \u2028', 2],
      ['toString', 3],
    ]);
  });

  test('refuses __proto__, which needs defineProperty', () => {
    assert.throws(() => keyWriter('__proto__'));
  });
});

describe('plainObjectMaker', () => {
  test('makes objects indistinguishable from {}', () => {
    const o = plainObjectMaker()();
    o.x = 1;
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.equal(o.constructor, Object);
    assert.deepEqual(o, { x: 1 });
    assert.equal(JSON.stringify(o), '{"x":1}');
  });
});

describe('root.key statements', () => {
  const run = (mapping: string, input: string) => {
    const out = parseMapping(mapping).apply([new Message(input)], 0);
    return out === null ? null : out.text();
  };

  test('build the document in order, skipping nothing and honouring deleted()', () => {
    const mapping = `root.a = this.x
root.b = if false { 1 }
root.c = this.y
root.c = deleted()
root.d = 4`;
    assert.equal(run(mapping, '{"x":1,"y":2}'), '{"a":1,"d":4}');
  });

  test('edit the input in place after root = this, leaving the input untouched', () => {
    const input = new Message('{"keep":1,"drop":2}');
    const out = parseMapping('root = this\nroot.added = true\nroot.drop = deleted()').apply([input], 0);
    assert.equal(out?.text(), '{"added":true,"keep":1}');
    assert.equal(input.text(), '{"keep":1,"drop":2}');
  });

  test('turn a non-object root into a new object, as assignPath does', () => {
    assert.equal(run('root = "text"\nroot.a = 1', '{}'), '{"a":1}');
    assert.equal(run('root = [1]\nroot.a = 1', '{}'), '{"a":1}');
  });

  test('nest deeper paths under the object made by a single-key statement', () => {
    assert.equal(run('root.a = 1\nroot.b.c = 2\nroot.b.d = root.a', '{}'), '{"a":1,"b":{"c":2,"d":1}}');
  });

  test('a __proto__ key stays an own key', () => {
    assert.equal(run('root.__proto__ = 1\nroot.b = 2', '{}'), '{"__proto__":1,"b":2}');
  });

  test('mutation starts from the input document', () => {
    const out = parseMapping('root.b = 2').applyMutation([new Message('{"a":1}')], 0);
    assert.equal(out?.text(), '{"a":1,"b":2}');
  });
});

describe('without code generation from strings', () => {
  test('mappings still run, on the shared accessors', () => {
    const script = `
      const { parseMapping } = await import('./src/bloblang/index.ts');
      const { Message } = await import('./src/message/message.ts');
      const out = parseMapping('root.a = this.x.y\\nroot.b = this.z.uppercase()').apply([new Message('{"x":{"y":1},"z":"q"}')], 0);
      console.log(out.text());`;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    assert.equal(child.stderr, '');
    assert.equal(child.stdout.trim(), '{"a":1,"b":"Q"}');
  });
});
