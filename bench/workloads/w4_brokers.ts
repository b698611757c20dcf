// W4: message brokers. Redis: `redis_streams` -> the doc mapping -> `redis_streams`, against a
// hand-written @redis/client loop with the same batch size (target >= 0.7). AMQP: `amqp_0_9` ->
// mapping -> `amqp_0_9`, against a hand-written amqplib loop with the same prefetch. Each run moves
// a pre-filled source into a fresh target; names are unique per run and deleted afterwards.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import amqp from 'amqplib';
import { makeDocument, mappingYaml } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { isRegistered, sleep, startNekton, timeCommand } from '../processes.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672/';
const BATCH = 100;

const suffix = () => randomBytes(4).toString('hex');

/** Runs nekton until `done()` says every message arrived; resolves the seconds from spawn. */
async function timeNektonUntil(configFile: string, done: () => Promise<boolean>, timeoutMs = 180_000) {
  const started = performance.now();
  const proc = startNekton(['-c', configFile]);
  try {
    const deadline = Date.now() + timeoutMs;
    while (!(await done())) {
      if (proc.child.exitCode !== null)
        throw new Error(`nekton exited ${proc.child.exitCode}: ${proc.stderr().slice(-400)}`);
      if (Date.now() > deadline)
        throw new Error(`not done within ${timeoutMs} ms: ${proc.stderr().slice(-400)}`);
      await sleep(20);
    }
    return (performance.now() - started) / 1000;
  } finally {
    await proc.stop();
  }
}

const pipeline = `pipeline:\n  processors:\n${mappingYaml(4)}`;
const header = 'http:\n  enabled: false\nlogger:\n  level: WARN\n';

export function w4Redis(workDir: string, messages = 200_000): Workload {
  const title = 'W4 Redis streams';
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => undefined);

  async function fill(stream: string): Promise<void> {
    for (let i = 0; i < messages; i += 5000) {
      const multi = redis.multi();
      for (let j = i; j < Math.min(i + 5000, messages); j++)
        multi.xAdd(stream, '*', { body: makeDocument(j) });
      await multi.exec();
    }
  }

  /** Fills a fresh source, runs `move`, checks the target, deletes both. */
  async function round(
    move: (source: string, target: string, group: string) => Promise<number>,
  ): Promise<Metrics> {
    const id = suffix();
    const source = `nekton_bench_src_${id}`;
    const target = `nekton_bench_dst_${id}`;
    try {
      await fill(source);
      const seconds = await move(source, target, `nekton_bench_${id}`);
      const moved = await redis.xLen(target);
      if (moved < messages) throw new Error(`only ${moved} of ${messages} messages arrived`);
      return { rate: messages / seconds };
    } finally {
      await redis.del([source, target]);
    }
  }

  return {
    id: 'W4',
    title,
    describes: `${num(messages)} JSON docs: redis_streams (limit ${BATCH}) -> the W2 mapping -> redis_streams (batching count ${BATCH}), against a hand-written @redis/client loop (XREADGROUP COUNT ${BATCH}, one MULTI of XADDs, XACK per batch)`,
    async skipReason() {
      if (
        !(await isRegistered('inputs', 'redis_streams')) ||
        !(await isRegistered('outputs', 'redis_streams'))
      )
        return 'redis_streams not available';
      try {
        await redis.connect();
        return undefined;
      } catch (err) {
        return `Redis at ${REDIS_URL} unreachable: ${(err as Error).message}`;
      }
    },
    setup: async () => undefined,
    teardown: async () => {
      if (redis.isOpen) await redis.quit();
    },
    contenders: [
      {
        name: 'nekton',
        run: () =>
          round((source, target, group) => {
            const configFile = join(workDir, 'w4-redis.yaml');
            writeFileSync(
              configFile,
              `${header}input:\n  redis_streams:\n    url: ${REDIS_URL}\n    streams: [ ${source} ]\n    consumer_group: ${group}\n    limit: ${BATCH}\n${pipeline}output:\n  redis_streams:\n    url: ${REDIS_URL}\n    stream: ${target}\n    batching:\n      count: ${BATCH}\n      period: 20ms\n`,
            );
            return timeNektonUntil(configFile, async () => (await redis.xLen(target)) >= messages);
          }),
      },
      {
        name: '@redis/client loop',
        run: () =>
          round((source, target, group) =>
            timeCommand(process.execPath, [
              'bench/baselines/redis_streams_loop.mjs',
              REDIS_URL,
              source,
              target,
              group,
              String(messages),
              String(BATCH),
            ]),
          ),
      },
    ],
    report: (m: Measured) => [ratioRow(title, m, 'nekton', '@redis/client loop', 'rate', format, 0.7)],
  };
}

export function w4Amqp(workDir: string, messages = 20_000): Workload {
  const title = 'W4 AMQP 0.9';
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  let connection: Awaited<ReturnType<typeof amqp.connect>> | null = null;

  async function round(move: (source: string, target: string) => Promise<number>): Promise<Metrics> {
    const id = suffix();
    const source = `nekton_bench_src_${id}`;
    const target = `nekton_bench_dst_${id}`;
    const channel = await connection!.createConfirmChannel();
    try {
      await channel.assertQueue(source, { durable: false });
      await channel.assertQueue(target, { durable: false });
      await channel.bindQueue(target, 'amq.direct', target);
      for (let i = 0; i < messages; i += 1000) {
        for (let j = i; j < Math.min(i + 1000, messages); j++)
          channel.sendToQueue(source, Buffer.from(makeDocument(j)));
        await channel.waitForConfirms();
      }
      const seconds = await move(source, target);
      const { messageCount } = await channel.checkQueue(target);
      if (messageCount < messages) throw new Error(`only ${messageCount} of ${messages} messages arrived`);
      return { rate: messages / seconds };
    } finally {
      await channel.deleteQueue(source).catch(() => undefined);
      await channel.deleteQueue(target).catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  }

  /** The hand-written amqplib loop; `headers` forwards the source's metadata as nekton does. */
  const amqpLoop = (source: string, target: string, mode: 'headers' | 'plain') =>
    timeCommand(process.execPath, [
      'bench/baselines/amqp_loop.mjs',
      AMQP_URL,
      source,
      target,
      String(messages),
      String(BATCH),
      mode,
    ]);

  return {
    id: 'W4',
    title,
    describes: `${num(messages)} JSON docs: amqp_0_9 (prefetch ${BATCH}) -> the W2 mapping -> amqp_0_9 (amq.direct), against a hand-written amqplib loop (prefetch ${BATCH}, confirm channel, one ack per ${BATCH} confirmed publishes) that forwards the source's metadata as headers as nekton does (target row), and the same loop sending no headers`,
    async skipReason() {
      if (!(await isRegistered('inputs', 'amqp_0_9')) || !(await isRegistered('outputs', 'amqp_0_9')))
        return 'amqp_0_9 input/output not available';
      try {
        connection = await amqp.connect(AMQP_URL);
        return undefined;
      } catch (err) {
        return `RabbitMQ at 127.0.0.1:5672 unreachable: ${(err as Error).message}`;
      }
    },
    setup: async () => undefined,
    teardown: async () => {
      await connection?.close().catch(() => undefined);
    },
    contenders: [
      {
        name: 'nekton',
        run: () =>
          round(async (source, target) => {
            const configFile = join(workDir, 'w4-amqp.yaml');
            writeFileSync(
              configFile,
              `${header}input:\n  amqp_0_9:\n    urls: [ ${AMQP_URL} ]\n    queue: ${source}\n    prefetch_count: ${BATCH}\n${pipeline}output:\n  amqp_0_9:\n    urls: [ ${AMQP_URL} ]\n    exchange: amq.direct\n    key: ${target}\n`,
            );
            const probe = await connection!.createChannel();
            try {
              return await timeNektonUntil(
                configFile,
                async () => (await probe.checkQueue(target)).messageCount >= messages,
              );
            } finally {
              await probe.close().catch(() => undefined);
            }
          }),
      },
      {
        name: 'amqplib loop',
        run: () => round((source, target) => amqpLoop(source, target, 'headers')),
      },
      {
        name: 'amqplib loop, no headers',
        run: () => round((source, target) => amqpLoop(source, target, 'plain')),
      },
    ],
    // The target row compares the same messages out; the second shows what the headers cost RabbitMQ.
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton', 'amqplib loop', 'rate', format, 0.7),
      ratioRow(title, m, 'nekton', 'amqplib loop, no headers', 'rate', format),
    ],
  };
}
