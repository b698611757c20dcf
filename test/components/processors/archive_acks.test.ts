// In a running stream, archiving and unarchiving lose nothing: every source message is acked once,
// after what it became was written, and nacked when that write fails.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as archive } from '../../../src/components/processors/archive.js';
import { spec as unarchive } from '../../../src/components/processors/unarchive.js';
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

async function run(world: FakeWorld, processors: ComponentConfig[], batchSize: number, n: number) {
  const registry = new Registry([...fakeSpecs(world), archive, unarchive] as ComponentSpec[]);
  const { builder, env, abort } = createTestEnv({ registry });
  const stream = await Stream.build(
    fakeStream({ messages: numbered(n), batchSize, processors }),
    builder,
    env.logger,
    abort,
  );
  await stream.run();
}

describe('archive and unarchive in a stream', () => {
  it('archives each batch into one written message and acks every source message once', async () => {
    const world = new FakeWorld();
    await run(world, [processor('archive', 0, { format: 'lines', path: '' })], 4, 12);
    assert.deepEqual(world.written, [
      'msg-0\nmsg-1\nmsg-2\nmsg-3',
      'msg-4\nmsg-5\nmsg-6\nmsg-7',
      'msg-8\nmsg-9\nmsg-10\nmsg-11',
    ]);
    assert.deepEqual(world.acks.map((a) => a.payload).sort(), numbered(12).sort());
    assert.ok(world.acks.every((a) => a.error === null));
  });

  it('delivers every part of a tar round trip, and nacks the sources of a failed write', async () => {
    const world = new FakeWorld();
    world.failWrite = (attempt) => attempt === 2;
    await run(
      world,
      [
        processor('archive', 0, { format: 'tar', path: `\${! content() }.txt` }),
        processor('unarchive', 1, { format: 'tar' }),
      ],
      3,
      9,
    );
    assert.deepEqual(world.written, ['msg-0', 'msg-1', 'msg-2', 'msg-6', 'msg-7', 'msg-8']);
    assert.equal(world.acks.length, 9, 'each source message settled once');
    assert.deepEqual(
      world.acks.filter((a) => a.error !== null).map((a) => a.payload),
      ['msg-3', 'msg-4', 'msg-5'],
    );
  });
});
