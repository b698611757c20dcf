// In a running stream, the javascript processor loses nothing: every message is written and acked
// once, the ones of a batch whose run failed go on flagged (as the reference marks them), and a
// write failure nacks its source messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as javascript } from '../../../src/components/processors/javascript.js';
import { spec as mapping } from '../../../src/components/processors/mapping.js';
import type { ComponentSpec } from '../../../src/config/spec.js';
import type { ComponentConfig } from '../../../src/engine/context.js';
import { Registry } from '../../../src/engine/registry.js';
import { Stream } from '../../../src/engine/stream.js';
import { createTestEnv } from '../../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream } from '../../helpers/fake_components.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `msg-${i}`);

function processor(type: string, index: number, config: unknown): ComponentConfig {
  return { type, label: '', config, processors: [], path: `root.pipeline.processors.${index}`, raw: config };
}

async function run(world: FakeWorld, code: string, batchSize: number, n: number) {
  const registry = new Registry([...fakeSpecs(world), javascript, mapping] as ComponentSpec[]);
  const { builder, env, abort } = createTestEnv({ registry });
  const processors = [
    processor('javascript', 0, { code, global_folders: [] }),
    // What the reference's error handling sees: the flag of each message.
    processor('mapping', 1, 'root = content().string() + if errored() { " (failed)" } else { "" }'),
  ];
  const stream = await Stream.build(
    fakeStream({ messages: numbered(n), batchSize, processors }),
    builder,
    env.logger,
    abort,
  );
  await stream.run();
}

describe('javascript processor in a stream', () => {
  it('writes and acks every message once; a failed run flags its whole batch', async () => {
    const world = new FakeWorld();
    await run(
      world,
      `(() => {
        const s = benthos.v0_msg_as_string();
        if (s === "msg-4") throw new Error("no 4");
        benthos.v0_msg_set_string(s.toUpperCase());
      })();`,
      3,
      9,
    );
    assert.deepEqual(
      [...world.written].sort(),
      [
        'MSG-0',
        'MSG-1',
        'MSG-2',
        'msg-3 (failed)',
        'msg-4 (failed)',
        'msg-5 (failed)',
        'MSG-6',
        'MSG-7',
        'MSG-8',
      ].sort(),
    );
    assert.deepEqual(world.acks.map((a) => a.payload).sort(), numbered(9).sort());
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('nacks the source messages of a failed write', async () => {
    const world = new FakeWorld();
    world.failWrite = (attempt) => attempt === 1;
    await run(world, 'benthos.v0_msg_set_string(benthos.v0_msg_as_string() + "!");', 2, 4);
    assert.equal(world.acks.length, 4, 'each source message settled once');
    assert.deepEqual(
      world.acks.filter((a) => a.error !== null).map((a) => a.payload),
      ['msg-0', 'msg-1'],
    );
    assert.deepEqual(world.written, ['msg-2!', 'msg-3!']);
  });
});
