// pipeline.threads on worker threads by default (no NEKTON_PIPELINE_WORKERS): a mapping is spread
// over the spare cores, its metrics are counted and its log lines written as on the main thread; a
// pipeline with nothing to spread, a process out of spare cores and NEKTON_PIPELINE_WORKERS=0 keep
// the processors on the main thread, each saying why.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { registry as builtins } from '../../src/components/registry.js';
import type { MetricsProvider } from '../../src/engine/builder.js';
import type { ComponentConfig, MetricsScope } from '../../src/engine/context.js';
import { Registry } from '../../src/engine/registry.js';
import { Stream } from '../../src/engine/stream.js';
import { releaseThreads, reserveThreads, spreadsWork } from '../../src/engine/threads/pool.js';
import { prestartPipelineThread, spareThreadWaiting } from '../../src/engine/threads/spare_thread.js';
import { createTestEnv } from '../helpers/context.js';
import { FakeWorld, fakeSpecs, fakeStream } from '../helpers/fake_components.js';

delete process.env.NEKTON_PIPELINE_WORKERS;

const docs = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ n: i, name: `doc ${i}` }));

function processor(type: string, config: unknown, at = 0): ComponentConfig {
  return { type, label: '', config, processors: [], path: `root.pipeline.processors.${at}`, raw: config };
}

const MAPPING = 'root.id = this.n\nroot.name = this.name.uppercase()';

/** Counts every counter increment and timer observation by `path name`. */
function countingMetrics(): { provider: MetricsProvider; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const bump = (key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);
  const scopeAt = (path: string): MetricsScope => ({
    counter: (name) => ({ inc: (n = 1) => bump(`${path} ${name}`, n) }),
    timer: (name) => ({
      observeNs: () => bump(`${path} ${name}`, 1),
      observeNsTimes: (_ns, times) => bump(`${path} ${name}`, times),
    }),
    gauge: () => ({ set: () => undefined }),
    child: (_label, childPath) => scopeAt(childPath),
  });
  return { provider: { scope: (labels) => scopeAt(labels.path) }, counts };
}

interface Built {
  stream: Stream;
  world: FakeWorld;
  counts: Map<string, number>;
  logs: Array<Record<string, unknown>>;
}

/** Every stream built here: stopped after the tests, so a failed assertion leaves no thread running. */
const everyStream: Stream[] = [];

async function build(options: Parameters<typeof fakeStream>[0]): Promise<Built> {
  const world = new FakeWorld();
  const { builder, env, abort } = createTestEnv({
    registry: new Registry([...builtins.list(), ...fakeSpecs(world)]),
  });
  const logs: Array<Record<string, unknown>> = [];
  env.logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const { provider, counts } = countingMetrics();
  env.metrics = provider;
  const components = fakeStream(options);
  components.pipeline.threadsWritten = true;
  const stream = await Stream.build(components, builder, env.logger, abort);
  everyStream.push(stream);
  return { stream, world, counts, logs };
}

/** Threads a process may start beside its main thread. */
const spareCores = availableParallelism() - 1;

describe('pipeline threads by default', () => {
  after(() => Promise.all(everyStream.map((s) => s.dispose())));

  it('run a mapping on a thread, with its metrics counted and its log lines written as here', async () => {
    assert.ok(availableParallelism() >= 2, 'this machine has one core: nothing to spread over');
    const n = 3000;
    const processors = [
      processor('mapping', MAPPING, 0),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
      processor('log', { level: 'INFO', message: 'doc ${! this.id }' }, 1),
    ];
    const one = await build({ messages: docs(n), threads: 1, grouped: true, processors });
    assert.equal(one.stream.pipelineThreads, 0);
    await one.stream.run();

    const two = await build({ messages: docs(n), threads: 2, grouped: true, processors });
    assert.equal(two.stream.pipelineThreads, 1);
    assert.ok(two.logs.some((l) => String(l.msg).includes('run on the main thread and 1 worker thread')));
    await two.stream.whenPipelineThreadsStarted();
    await two.stream.run();
    assert.ok(two.stream.pipelineThreadGroups > 0, 'no group ran on the thread');
    assert.equal(two.world.acks.length, n);
    assert.deepEqual([...two.world.written].sort(), [...one.world.written].sort());

    // The processors' series hold every message, wherever it ran: the same as with one thread.
    assert.equal(two.counts.get('root.pipeline.processors.0 processor_received'), n);
    assert.deepEqual(new Map([...two.counts].sort()), new Map([...one.counts].sort()));

    // Every line of the `log` processor went through the stream's logger, with its path.
    const lines = (built: Built) =>
      built.logs.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('doc '));
    assert.equal(lines(two).length, n);
    assert.ok(lines(two).every((l) => l.path === 'root.pipeline.processors.1' && l.level === 30));
    assert.deepEqual(new Set(lines(two).map((l) => l.msg)), new Set(lines(one).map((l) => l.msg)));
  });

  it('cross only batches and groups of 16 messages or more: single requests run on the main thread', async () => {
    const mapping = [processor('mapping', MAPPING)];
    const singles = await build({ messages: docs(400), threads: 2, processors: mapping });
    assert.equal(singles.stream.pipelineThreads, 1);
    await singles.stream.whenPipelineThreadsStarted();
    await singles.stream.run();
    assert.equal(singles.stream.pipelineThreadGroups, 0);
    assert.equal(singles.world.written.length, 400);

    const batches = await build({ messages: docs(400), batchSize: 20, threads: 2, processors: mapping });
    await batches.stream.whenPipelineThreadsStarted();
    await batches.stream.run();
    assert.ok(batches.stream.pipelineThreadGroups > 0, 'no batch of 20 crossed');
    assert.equal(batches.world.written.length, 400);
  });

  it('keep a pipeline with nothing to spread on the main thread, and say so', async () => {
    assert.equal(spreadsWork([processor('noop', {})]), false);
    assert.equal(spreadsWork([processor('mapping', 'root = this')]), true);
    const wrapped = processor('catch', [processor('mapping', 'root = this')]);
    assert.equal(spreadsWork([wrapped]), true);

    const noop = await build({ messages: docs(10), threads: 2, processors: [processor('noop', {})] });
    assert.equal(noop.stream.pipelineThreads, 0);
    assert.ok(noop.logs.some((l) => String(l.msg).includes('no per-message work to spread')));
    await noop.stream.run();
    assert.equal(noop.world.written.length, 10);
  });

  it('NEKTON_PIPELINE_WORKERS=0 turns them off', async () => {
    process.env.NEKTON_PIPELINE_WORKERS = '0';
    try {
      const off = await build({
        messages: docs(10),
        threads: 2,
        processors: [processor('mapping', MAPPING)],
      });
      assert.equal(off.stream.pipelineThreads, 0);
      assert.ok(off.logs.some((l) => String(l.msg).includes('NEKTON_PIPELINE_WORKERS')));
      await off.stream.run();
      assert.equal(off.world.written.length, 10);
    } finally {
      delete process.env.NEKTON_PIPELINE_WORKERS;
    }
  });

  it('take the thread started while the config was read, and drop it when the processors stay here', async () => {
    assert.ok(availableParallelism() >= 2, 'this machine has one core: nothing to spread over');
    const mapping = [processor('mapping', MAPPING)];
    const ahead = prestartPipelineThread();
    assert.ok(ahead, 'no thread was started ahead');
    assert.equal(prestartPipelineThread(), null, 'a second spare while one waits');
    const taken = await build({ messages: docs(400), batchSize: 20, threads: 2, processors: mapping });
    assert.equal(spareThreadWaiting(), false);
    assert.equal(taken.stream.pipelineThreads, 1);
    assert.ok(
      taken.logs.some((l) =>
        String(l.msg).includes('1 worker thread(s) (1 started while the config was read)'),
      ),
    );
    await taken.stream.whenPipelineThreadsStarted();
    const exited = once(ahead, 'exit');
    await taken.stream.run();
    assert.ok(taken.stream.pipelineThreadGroups > 0, 'no group ran on the thread started ahead');
    assert.equal(taken.world.written.length, 400);
    // The stream owned it: stopping the stream stopped it.
    await exited;

    const unused = prestartPipelineThread();
    assert.ok(unused, 'no thread was started ahead');
    const dropped = once(unused, 'exit');
    const noop = await build({ messages: docs(10), threads: 2, processors: [processor('noop', {})] });
    assert.equal(noop.stream.pipelineThreads, 0);
    assert.equal(spareThreadWaiting(), false);
    await dropped;
    await noop.stream.run();
    assert.equal(noop.world.written.length, 10);
  });

  it('start a thread of their own when the one started ahead is gone before the stream starts', async () => {
    assert.ok(availableParallelism() >= 2, 'this machine has one core: nothing to spread over');
    const ahead = prestartPipelineThread();
    assert.ok(ahead, 'no thread was started ahead');
    const exited = once(ahead, 'exit');
    await ahead.terminate();
    await exited;
    assert.equal(spareThreadWaiting(), false);
    const mapping = [processor('mapping', MAPPING)];
    const built = await build({ messages: docs(400), batchSize: 20, threads: 2, processors: mapping });
    assert.equal(built.stream.pipelineThreads, 1);
    assert.ok(!built.logs.some((l) => String(l.msg).includes('started while the config was read')));
    await built.stream.whenPipelineThreadsStarted();
    await built.stream.run();
    assert.ok(built.stream.pipelineThreadGroups > 0, 'no group ran on a thread');
    assert.equal(built.world.written.length, 400);
  });

  it('share the spare cores between the streams of a process, handing a freed one to a waiting stream', async () => {
    assert.equal(reserveThreads(5, 3), 2);
    assert.equal(reserveThreads(1, 3), 0);
    releaseThreads(2);

    const options = { messages: docs(20), threads: -1, processors: [processor('mapping', MAPPING)] };
    const first = await build(options);
    assert.equal(first.stream.pipelineThreads, spareCores);
    const second = await build(options);
    assert.equal(second.stream.pipelineThreads, 0);
    assert.ok(second.logs.some((l) => String(l.msg).includes('give a core back')));
    // The first stream gives its thread back when it ends, and the waiting one starts it.
    await first.stream.run();
    assert.equal(second.stream.pipelineThreads, spareCores);
    assert.ok(second.logs.some((l) => String(l.msg).includes('a core was given back')));
    await second.stream.whenPipelineThreadsStarted();
    await second.stream.run();
    assert.equal(first.world.written.length + second.world.written.length, 40);
    const third = await build(options);
    assert.equal(third.stream.pipelineThreads, spareCores);
    await third.stream.run();
  });
});
