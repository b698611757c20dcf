// pipeline.threads on worker threads (src/engine/threads): the same results as one thread, errors
// flagged as the processor flags them, processors that cannot cross kept on the main thread, a
// crashed thread's messages delivered again with the process alive, and a clean stop.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { registerBloblangFunction } from '../../src/api/register.js';
import { registry as builtins } from '../../src/components/registry.js';
import type { ComponentConfig } from '../../src/engine/context.js';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { staysOnMain, threadCount } from '../../src/engine/threads/pool.js';
import { createTestEnv } from '../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream, throwerProcessor } from '../helpers/fake_components.js';
import { waitFor } from '../helpers/kit.js';

// Worker threads are on unless NEKTON_PIPELINE_WORKERS=0 (src/engine/stream.ts): whatever the
// environment says, this file looks at them.
delete process.env.NEKTON_PIPELINE_WORKERS;

const docs = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ n: i, name: `doc ${i}` }));

function processor(type: string, config: unknown, at = 0): ComponentConfig {
  return { type, label: '', config, processors: [], path: `root.pipeline.processors.${at}`, raw: config };
}

const MAPPING =
  'root.id = this.n\nroot.twice = this.n * 2\nroot.name = this.name.uppercase()\nmeta seen = "yes"';

async function build(world: FakeWorld, options: Parameters<typeof fakeStream>[0]): Promise<Stream> {
  const { builder, env, abort } = createTestEnv({
    registry: new Registry([...builtins.list(), ...fakeSpecs(world)]),
  });
  const components = fakeStream(options);
  components.pipeline.threadsWritten = true;
  return Stream.build(components, builder, env.logger, abort);
}

async function outputOf(threads: number, grouped: boolean, n: number): Promise<string[]> {
  const world = new FakeWorld();
  const stream = await build(world, {
    messages: docs(n),
    threads,
    grouped,
    processors: [processor('mapping', MAPPING)],
  });
  assert.equal(stream.pipelineThreads, threads > 1 ? threads - 1 : 0);
  // The stream does not wait for its threads (groups run on the main thread until one is ready);
  // this comparison is about the threads, so it starts once they are.
  await stream.whenPipelineThreadsStarted();
  await stream.run();
  assert.equal(world.acks.length, n);
  assert.ok(world.acks.every((a) => a.error === null));
  return world.written;
}

describe('pipeline threads', () => {
  it('give the results one thread gives, for single reads and for groups', async () => {
    const one = await outputOf(1, true, 3000);
    const two = await outputOf(2, true, 3000);
    const twoSingle = await outputOf(2, false, 300);
    assert.equal(two.length, 3000);
    // The reference keeps no order across threads: the same messages, each once.
    assert.deepEqual([...two].sort(), [...one].sort());
    assert.deepEqual([...twoSingle].sort(), [...one.slice(0, 300)].sort());
    assert.deepEqual(JSON.parse(one[7]!), { id: 7, twice: 14, name: 'DOC 7' });
  });

  it('carry metadata and flag the messages a processor failed on', async () => {
    const world = new FakeWorld();
    const messages = [...docs(50), 'not json', ...docs(3)];
    const stream = await build(world, {
      messages,
      threads: 2,
      grouped: true,
      processors: [
        processor('mapping', 'root = this\nmeta seen = "yes"', 0),
        processor('mapping', 'root = this.without("name")\nroot.seen = @seen', 1),
      ],
    });
    assert.equal(stream.pipelineThreads, 1);
    await stream.run();
    assert.equal(world.written.length, messages.length);
    assert.equal(world.flagged.length, 1);
    assert.equal(world.flagged[0]!.payload, 'not json');
    assert.match(world.flagged[0]!.error, /json|parse|invalid|expected/i);
    // Metadata set on the thread was read on the thread by the next processor.
    assert.ok(world.written.includes(JSON.stringify({ n: 3, seen: 'yes' })));
  });

  it('read groups for an output that writes batch by batch, and deliver a failed write again', async () => {
    const world = new FakeWorld();
    const n = 2000;
    world.failWrite = (attempt) => attempt === 5 || attempt === 700;
    const stream = await build(world, {
      messages: docs(n),
      threads: 2,
      grouped: true,
      groupedOutput: false,
      autoReplayNacks: true,
      processors: [processor('mapping', MAPPING)],
    });
    assert.equal(stream.pipelineThreads, 1);
    await stream.run();
    // One crossing per group, not per message (a crossing per message made a copy 20x slower).
    assert.ok(world.groupAcks > 0, 'the input was read in groups');
    assert.equal(world.groupWrites, 0);
    const ids = world.written.map((w) => (JSON.parse(w) as { id: number }).id);
    assert.equal(new Set(ids).size, n, 'every message was written');
    assert.equal(ids.length, n, 'only the two failed writes were repeated, and they failed');
    assert.equal(world.acks.length, n);
    assert.ok(world.acks.every((a) => a.error === null));
    assert.equal(new Set(world.acks.map((a) => a.payload)).size, n, 'each message acked once');
  });

  it('with a drop output, still ack everything and report the messages a processor failed on', async () => {
    const world = new FakeWorld();
    const messages = [...docs(500), 'not json', ...docs(20)];
    const { builder, env, abort } = createTestEnv({
      registry: new Registry([...builtins.list(), ...fakeSpecs(world)]),
    });
    const components = fakeStream({
      messages,
      threads: 2,
      grouped: true,
      processors: [processor('mapping', MAPPING)],
    });
    components.pipeline.threadsWritten = true;
    components.output = { type: 'drop', label: '', config: {}, processors: [], path: 'root.output', raw: {} };
    const stream = await Stream.build(components, builder, env.logger, abort);
    assert.equal(stream.pipelineThreads, 1);
    await stream.run();
    assert.equal(world.acks.length, messages.length);
    assert.ok(world.acks.every((a) => a.error === null));
    assert.match(stream.lastError() ?? '', /processing failed/);
  });

  it('leave a pipeline whose processors cannot cross on the main thread', async () => {
    assert.equal(staysOnMain([processor('mapping', 'root = this')]), null);
    assert.match(staysOnMain([processor('cache', {})]) ?? '', /cache/);
    const nested = processor('switch', [{ check: '', processors: [processor('sync_response', {})] }]);
    (nested.config as Array<{ processors: ComponentConfig[] }>)[0]!.processors[0]!.path = 'root.x';
    assert.match(staysOnMain([nested]) ?? '', /sync_response/);
    assert.equal(threadCount(-1, 8), 8);
    assert.equal(threadCount(0, 8), 8);
    assert.equal(threadCount(3, 8), 3);

    const world = new FakeWorld();
    world.throwOn = (p) => p === 'b';
    const stream = await build(world, {
      messages: ['a', 'b', 'c'],
      threads: 2,
      processors: [throwerProcessor()],
    });
    assert.equal(stream.pipelineThreads, 0);
    await stream.run();
    assert.deepEqual(world.written.sort(), ['a', 'b', 'c']);
    assert.deepEqual(
      world.flagged.map((f) => f.payload),
      ['b'],
    );
  });

  it('stay on the main thread when a thread cannot build the processors', async () => {
    // Registered in this process only: a pipeline thread builds from the built-in components.
    registerBloblangFunction({ name: 'only_in_this_process', impl: () => 'here' });
    const logged: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          logged.push(String(chunk));
          done();
        },
      }),
    );
    const world = new FakeWorld();
    const { builder, abort } = createTestEnv({
      registry: new Registry([...builtins.list(), ...fakeSpecs(world)]),
    });
    const components = fakeStream({
      messages: docs(500),
      threads: 2,
      grouped: true,
      processors: [processor('mapping', 'root.n = this.n\nroot.where = only_in_this_process()')],
    });
    components.pipeline.threadsWritten = true;
    const stream = await Stream.build(components, builder, logger, abort);
    assert.equal(stream.pipelineThreads, 1, 'the thread is starting');
    await stream.whenPipelineThreadsStarted();
    assert.equal(stream.pipelineThreads, 0, 'the thread refused the pipeline');
    await stream.run();
    assert.equal(world.written.length, 500);
    assert.ok(world.written.every((w) => (JSON.parse(w) as { where: string }).where === 'here'));
    assert.ok(world.acks.every((a) => a.error === null));
    assert.equal(stream.pipelineThreads, 0);
    assert.ok(
      logged.some((l) => /the processors run on the main thread: a pipeline thread could not build/.test(l)),
      logged.join(''),
    );
  });

  it('deliver again the messages of a thread that crashed, and go on', async () => {
    const world = new FakeWorld();
    const n = 120;
    const stream = await build(world, {
      messages: docs(n),
      threads: 2,
      autoReplayNacks: true,
      processors: [processor('sleep', { duration: '5ms' }, 0), processor('mapping', MAPPING, 1)],
    });
    assert.equal(stream.pipelineThreads, 1);
    // The thread must be ready to be crashed (until then the main thread runs every group).
    await stream.whenPipelineThreadsStarted();
    const running = stream.run();
    await waitFor(() => world.written.length >= 10);
    stream.crashPipelineThread();
    await running;
    const delivered = new Set(world.written.map((w) => (JSON.parse(w) as { id: number }).id));
    assert.equal(delivered.size, n, 'every message was delivered at least once');
    assert.ok(world.acks.every((a) => a.error === null));
    assert.equal(world.acks.length, n);
    assert.equal(stream.pipelineThreads, 0, 'the threads were stopped with the stream');
  });

  it('stop terminates the threads cleanly while messages are in flight', async () => {
    const world = new FakeWorld();
    let open!: () => void;
    world.readGate = new Promise((resolve) => (open = resolve));
    world.readGateFrom = 20;
    const stream = await build(world, {
      messages: docs(40),
      threads: 2,
      processors: [processor('mapping', MAPPING)],
    });
    const running = stream.run();
    await waitFor(() => world.written.length === 20);
    assert.equal(stream.pipelineThreads, 1);
    await stream.stop(2000);
    await running;
    open();
    assert.equal(stream.pipelineThreads, 0);
    assert.equal(stream.active, false);
    assert.equal(world.closedOutputs, 1);
  });
});
