// The aws_kinesis output against kinesalite, a Kinesis emulator from npm run by the test itself
// (a dev dependency, in memory).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  CreateStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type KinesisClient,
  ListShardsCommand,
} from '@aws-sdk/client-kinesis';
import { loadAws } from '../../../src/components/aws/library.js';
import { kinesisClient } from '../../../src/components/outputs/aws_kinesis.js';
import { waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { PrivateEmulator } from './emulator.js';

const interp = (query: string) => `$\{! ${query} }`;
const uniqueStream = () => `nekton-${randomBytes(4).toString('hex')}`;

function outputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('output') && !s.connected && s.error)?.error;
}

describe('aws_kinesis output (kinesalite)', () => {
  let kinesis: PrivateEmulator;
  let client: KinesisClient;

  const createStream = async (name: string, shards = 2) => {
    await client.send(new CreateStreamCommand({ StreamName: name, ShardCount: shards }));
    return name;
  };

  /** Every record of the stream as `partitionKey=data`, shard by shard. */
  const records = async (stream: string): Promise<{ key: string; data: string; shard: string }[]> => {
    const out: { key: string; data: string; shard: string }[] = [];
    const shards = (await client.send(new ListShardsCommand({ StreamName: stream }))).Shards ?? [];
    for (const shard of shards) {
      let iterator = (
        await client.send(
          new GetShardIteratorCommand({
            StreamName: stream,
            ShardId: shard.ShardId,
            ShardIteratorType: 'TRIM_HORIZON',
          }),
        )
      ).ShardIterator;
      for (let pages = 0; iterator && pages < 20; pages++) {
        const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator }));
        for (const r of page.Records ?? [])
          out.push({
            key: r.PartitionKey ?? '',
            data: Buffer.from(r.Data ?? []).toString(),
            shard: shard.ShardId ?? '',
          });
        if ((page.Records ?? []).length === 0) break;
        iterator = page.NextShardIterator;
      }
    }
    return out;
  };

  before(async () => {
    await loadAws('kinesis', 'http');
    kinesis = await PrivateEmulator.kinesis();
    client = kinesisClient({
      region: 'us-east-1',
      endpoint: kinesis.url,
      credentials: { accessKeyId: 'TESTID', secretAccessKey: 'TESTSECRET' },
    });
  });

  after(async () => {
    client?.destroy();
    await kinesis?.stop();
  });

  it('sends every message as a record with its interpolated partition key, batches in one request', async () => {
    const stream = await createStream(uniqueStream());
    const run = await startStream(`input:
  generate:
    count: 20
    interval: ''
    mapping: 'root = {"user": "u" + (counter() % 4).string(), "n": counter()}'
output:
  aws_kinesis:
    stream: ${stream}
    partition_key: '${interp('this.user')}'
    batching:
      count: 10
${kinesis.session()}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 10_000 });
      const got = await records(stream);
      assert.equal(got.length, 20);
      const byN = new Map(got.map((r) => [JSON.parse(r.data).n as number, r]));
      for (let n = 1; n <= 20; n++) assert.equal(byN.get(n)?.key, `u${n % 4}`, `record ${n}`);
      // One partition key always lands on one shard.
      for (const key of ['u0', 'u1', 'u2', 'u3'])
        assert.equal(new Set(got.filter((r) => r.key === key).map((r) => r.shard)).size, 1, key);
    } finally {
      await run.stop();
    }
  });

  it('a missing stream shows on the status naming it; writes go through once it exists', async () => {
    const stream = uniqueStream();
    const run = await startStream(`input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = counter().string()'
output:
  aws_kinesis:
    stream: ${stream}
    partition_key: k
${kinesis.session()}
`);
    try {
      const err = await waitFor(() => outputError(run), { message: 'the stream error', timeoutMs: 10_000 });
      assert.match(
        err ?? '',
        new RegExp(`stream '${stream}' does not exist at http://127\\.0\\.0\\.1:${kinesis.port}`),
      );
      await createStream(stream, 1);
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 20_000 });
      assert.deepEqual(
        (await records(stream)).map((r) => r.data),
        ['1', '2', '3'],
      );
    } finally {
      await run.stop();
    }
  });

  it('reports a server that went away and sends again once it is back', async () => {
    const stream = await createStream(uniqueStream(), 1);
    let run: RunningStream | null = null;
    try {
      run = await startStream(`input:
  generate:
    count: 60
    interval: 20ms
    mapping: 'root = counter().string()'
output:
  aws_kinesis:
    stream: ${stream}
    partition_key: k
${kinesis.session()}
`);
      const r = run;
      await waitFor(async () => (await records(stream)).length >= 3, {
        message: 'records under way',
        timeoutMs: 10_000,
      });
      await kinesis.stop();
      const down = await waitFor(() => outputError(r), { message: 'the outage', timeoutMs: 10_000 });
      assert.match(down ?? '', new RegExp(`cannot reach endpoint http://127\\.0\\.0\\.1:${kinesis.port}`));
      assert.equal(r.stream.isReady(), false);
      // A restarted emulator has lost its streams: the output waits until the stream is back.
      await kinesis.start();
      await createStream(stream, 1);
      await waitFor(() => !r.stream.active, { message: 'the stream to end', timeoutMs: 30_000 });
      const data = (await records(stream)).map((x) => x.data);
      assert.ok(data.includes('60'), 'the last message was sent after the restart');
    } finally {
      await kinesis.start();
      await run?.stop();
    }
  });
});
