import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

/** A branch config from its three mappings (request, one `mapping` processor, result). */
function branch(request: string, process: string, result: string) {
  return { request_map: request, processors: [{ mapping: process }], result_map: result };
}

/** The chain foo → bar → baz → buz used by the reference's own tests. */
const chain = {
  '0': branch('root.foo = this.foo.not_null()', 'root = this', 'root.bar = this.foo.number()'),
  '1': branch('root.bar = this.bar.not_null()', 'root = this', 'root.baz = this.bar.number() + 5'),
  '2': branch('root.baz = this.baz.not_null()', 'root = this', 'root.buz = this.baz.number() + 2'),
};

const parsed = (texts: string[]) => texts.map((t) => JSON.parse(t));

async function rejects(raw: Record<string, unknown>, message: RegExp, env = createTestEnv()) {
  await assert.rejects(processor(raw, env), (err: Error) => {
    assert.match(err.message, message);
    return true;
  });
}

/** A processor that records when each call starts and ends, answering after a short wait. */
function slowRecorder(events: string[], name: string): Processor {
  return {
    async process(batch) {
      events.push(`${name} start`);
      await new Promise((r) => setTimeout(r, 20));
      events.push(`${name} end`);
      return [batch];
    },
    async close() {},
  };
}

describe('workflow processor', () => {
  it('infers stages from what each branch reads and writes, so dependent branches see earlier results', async () => {
    const p = await processor({ workflow: { branches: chain } });
    const [out] = await run(p, batchOf('{}', '{"foo":"not a number"}', '{"foo":"5"}'));
    const [none, notNumber, five] = parsed(out!.map((m) => m.text()));
    const nullField = (f: string) =>
      `request mapping failed: failed assignment (line 1): field \`this.${f}\`: value is null`;
    assert.deepEqual(none, {
      meta: { workflow: { failed: { '0': nullField('foo'), '1': nullField('bar'), '2': nullField('baz') } } },
    });
    assert.deepEqual(Object.keys(notNumber.meta.workflow.failed), ['0', '1', '2']);
    assert.match(
      notNumber.meta.workflow.failed['0'],
      /^result mapping failed: failed assignment \(line 1\): field `this.foo`/,
    );
    assert.equal(notNumber.meta.workflow.failed['1'], nullField('bar'));
    assert.deepEqual(five, {
      bar: 5,
      baz: 10,
      buz: 12,
      foo: '5',
      meta: { workflow: { succeeded: ['0', '1', '2'] } },
    });
    // Failures are recorded, not flagged, while meta_path is set.
    for (const m of out!) assert.equal(m.error, null);
  });

  it('orders a branch reading metadata after the branch whose result map writes it', async () => {
    const p = await processor({
      workflow: {
        branches: {
          // Named so that alphabetical order alone would run the reader first.
          a_reader: branch(
            'root = @tag',
            'root = content().string() + "!"',
            'root.seen = content().string()',
          ),
          b_writer: branch(
            'root = this.id',
            'root = "t-" + content().string()',
            'meta tag = content().string()',
          ),
        },
      },
    });
    const [out] = await run(p, batchOf('{"id":"7"}'));
    assert.equal(JSON.parse(out![0]!.text()).seen, 't-7!');
    assert.equal(out![0]!.getMeta('tag'), 't-7');
  });

  it('runs an explicit order even when it differs from the inferred one', async () => {
    const p = await processor({ workflow: { order: [['2'], ['1'], ['0']], branches: chain } });
    const [out] = await run(p, batchOf('{"foo":"5"}'));
    // 2 and 1 ran before the fields they need existed.
    assert.deepEqual(JSON.parse(out![0]!.text()).meta.workflow.succeeded, ['0']);
    assert.deepEqual(Object.keys(JSON.parse(out![0]!.text()).meta.workflow.failed), ['1', '2']);
    assert.equal(JSON.parse(out![0]!.text()).bar, 5);
  });

  it('runs the branches of one stage at the same time and merges each result', async () => {
    const events: string[] = [];
    // The slow processors are resources, so the branches reach them with `resource:`.
    const env = createTestEnv();
    for (const name of ['slow_a', 'slow_b'])
      await env.resources.set('processor', name, slowRecorder(events, name), {});
    const p = await processor(
      {
        workflow: {
          branches: {
            a: {
              request_map: 'root = this.x',
              processors: [{ resource: 'slow_a' }],
              result_map: 'root.a = this',
            },
            b: {
              request_map: 'root = this.x',
              processors: [{ resource: 'slow_b' }],
              result_map: 'root.b = this',
            },
          },
        },
      },
      env,
    );
    const [out] = await run(p, batchOf('{"x":7}'));
    assert.deepEqual(JSON.parse(out![0]!.text()), {
      a: 7,
      b: 7,
      x: 7,
      meta: { workflow: { succeeded: ['a', 'b'] } },
    });
    // Both started before either finished.
    assert.deepEqual(events.slice(0, 2).sort(), ['slow_a start', 'slow_b start']);
  });

  it('skips branches a replayed message already passed, keeps the old record and honours apply', async () => {
    const p = await processor({ workflow: { branches: chain } });
    const [out] = await run(
      p,
      batchOf(
        '{"meta":{"workflow":{"apply":["2"]}},"baz":2}',
        '{"meta":{"workflow":{"skipped":["0"]}},"bar":3}',
        '{"meta":{"workflow":{"succeeded":["1"]}},"baz":9}',
      ),
    );
    const got = parsed(out!.map((m) => m.text()));
    assert.deepEqual(got[0], {
      baz: 2,
      buz: 4,
      meta: { workflow: { previous: { apply: ['2'] }, skipped: ['0', '1'], succeeded: ['2'] } },
    });
    assert.deepEqual(got[1], {
      bar: 3,
      baz: 8,
      buz: 10,
      meta: { workflow: { previous: { skipped: ['0'] }, skipped: ['0'], succeeded: ['1', '2'] } },
    });
    assert.deepEqual(got[2].meta.workflow.skipped, ['1']);
    assert.deepEqual(got[2].meta.workflow.succeeded, ['2']);
    assert.deepEqual(Object.keys(got[2].meta.workflow.failed), ['0']);
    assert.equal(got[2].buz, 11);
  });

  it('keeps errors from before the workflow out of the branches but on the messages', async () => {
    const p = await processor({
      workflow: {
        branches: {
          up: branch(
            'root = this',
            'root = this\nroot.name_upper = this.name.uppercase()',
            'root.result = if this.failme.bool(false) { throw("this is a branch error") } else { this.name_upper }',
          ),
        },
      },
    });
    const first = new Message('{"id":0,"name":"first"}');
    first.error = new Error('this is a pre-existing failure');
    const [out] = await run(p, [first, new Message('{"failme":true,"id":1,"name":"second"}')]);
    assert.equal(JSON.parse(out![0]!.text()).result, 'FIRST');
    assert.equal(out![0]!.error?.message, 'this is a pre-existing failure');
    assert.match(
      JSON.parse(out![1]!.text()).meta.workflow.failed.up,
      /^result mapping failed: .*this is a branch error/,
    );
    assert.equal(out![1]!.error, null);
  });

  it('flags a message that is not JSON, as it cannot hold the record', async () => {
    const p = await processor({ workflow: { branches: chain } });
    const [out] = await run(p, batchOf('not even a json object'));
    assert.equal(out![0]!.text(), 'not even a json object');
    assert.ok(out![0]!.error);
  });

  it('with meta_path empty, flags messages whose branches failed, naming them', async () => {
    const p = await processor({ workflow: { meta_path: '', branches: chain } });
    const [out] = await run(p, batchOf('{"foo":"5"}', '{"bar":"x"}'));
    assert.equal(out![0]!.text(), '{"bar":5,"baz":10,"buz":12,"foo":"5"}');
    assert.equal(out![0]!.error, null);
    assert.equal(out![1]!.error?.message, 'workflow branches failed: [0 1 2]');
  });

  it('records a branch whose children change the message count as failed for every message', async () => {
    const p = await processor({
      workflow: {
        branches: {
          gone: { processors: [{ mapping: 'root = deleted()' }], result_map: 'root.x = this' },
        },
      },
    });
    const [out] = await run(p, batchOf('{"a":1}', '{"a":2}'));
    assert.equal(out!.length, 2);
    for (const m of out!) {
      assert.deepEqual(JSON.parse(m.text()).meta.workflow.failed, {
        gone: 'child processors resulted in zero messages',
      });
    }
  });

  it('records branches skipped by their request map', async () => {
    const p = await processor({
      workflow: {
        branches: {
          maybe: branch('root = if this.go { this } else { deleted() }', 'root = 1', 'root.r = this'),
        },
      },
    });
    const [out] = await run(p, batchOf('{"go":true}', '{"go":false}'));
    assert.deepEqual(texts([out!]), [
      [
        '{"go":true,"meta":{"workflow":{"succeeded":["maybe"]}},"r":1}',
        '{"go":false,"meta":{"workflow":{"skipped":["maybe"]}}}',
      ],
    ]);
  });

  it('refuses circular dependencies at build and at lint, naming the branches', async () => {
    const cycle = {
      '0': branch('root = this.foo', 'root = this', 'root.bar = this'),
      '1': branch('root = this.foo', 'root = this', 'root.baz = this'),
      '2': branch('root = this.baz', 'root = this', 'root.foo = this'),
    };
    const expected =
      'failed to automatically resolve DAG, circular dependencies detected for branches: [0 1 2]';
    await rejects({ workflow: { branches: cycle } }, new RegExp(expected.replace(/[[\]]/g, '\\$&')));
    const yaml = `workflow:
  branches:
${Object.entries(cycle)
  .map(
    ([k, b]) =>
      `    "${k}":\n      request_map: '${b.request_map}'\n      processors:\n        - mapping: 'root = this'\n      result_map: '${b.result_map}'`,
  )
  .join('\n')}
`;
    assert.ok(lintComponent('processor', yaml).some((m) => m.includes(expected)));
  });

  it('refuses an explicit order that misses or repeats a branch, or names an unknown resource', async () => {
    await rejects(
      { workflow: { order: [['1'], ['0']], branches: chain } },
      /the following branches were missing from order: \[2\]/,
    );
    await rejects(
      { workflow: { order: [['1'], ['0', '2'], ['1']], branches: chain } },
      /branch specified in order listed multiple times: 1/,
    );
    await rejects(
      { workflow: { order: [['foo', '0', '1', '2']], branches: chain } },
      /processor resource 'foo' was not found/,
    );
    await rejects({ workflow: { branches: { 'bad name': chain['0'] } } }, /contains invalid characters/);
  });

  it('uses branch processor resources, ordered with the inline branches', async () => {
    const env = createTestEnv();
    for (const id of ['1', '2']) {
      const built = await processor({ branch: chain[id as '1' | '2'] }, env);
      await env.resources.set('processor', id, built, {});
    }
    const p = await processor(
      { workflow: { branch_resources: ['1', '2'], branches: { '0': chain['0'] } } },
      env,
    );
    const [out] = await run(p, batchOf('{"foo":"5"}'));
    assert.deepEqual(JSON.parse(out![0]!.text()), {
      bar: 5,
      baz: 10,
      buz: 12,
      foo: '5',
      meta: { workflow: { succeeded: ['0', '1', '2'] } },
    });

    // A resource that is not a branch flags the batch rather than losing it.
    await env.resources.set('processor', '2', await processor({ mapping: 'root = this' }, env), {});
    const [flagged] = await run(p, batchOf('{"foo":"5"}'));
    assert.equal(flagged![0]!.text(), '{"foo":"5"}');
    assert.equal(flagged![0]!.error?.message, 'missing branch resource: 2');
  });

  it('uses branch resources named in order', async () => {
    const env = createTestEnv();
    await env.resources.set('processor', 'first', await processor({ branch: chain['0'] }, env), {});
    const p = await processor(
      { workflow: { order: [['first'], ['1']], branches: { '1': chain['1'] } } },
      env,
    );
    const [out] = await run(p, batchOf('{"foo":"1"}'));
    assert.deepEqual(JSON.parse(out![0]!.text()).baz, 6);
  });
});
