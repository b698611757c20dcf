// The aws_kinesis input against kinesalite (Kinesis) and dynalite (its checkpoint table), both
// npm emulators run by the test itself, in memory.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { CreateStreamCommand, type KinesisClient, PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { loadAws } from '../../../src/components/aws/library.js';
import { kinesisClient } from '../../../src/components/outputs/aws_kinesis.js';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import { waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { PrivateEmulator } from './emulator.js';

const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

describe('aws_kinesis input (kinesalite, dynalite)', () => {
  let kinesis: PrivateEmulator;
  let ddb: PrivateEmulator;
  let kc: KinesisClient;
  let dc: DynamoDBClient;
  const creds = { accessKeyId: 'TESTID', secretAccessKey: 'TESTSECRET' };

  before(async () => {
    await loadAws('kinesis', 'http');
    kinesis = await PrivateEmulator.kinesis();
    ddb = await PrivateEmulator.dynamodb();
    kc = kinesisClient({ region: 'us-east-1', endpoint: kinesis.url, credentials: creds });
    dc = new DynamoDBClient({ region: 'us-east-1', endpoint: ddb.url, credentials: creds });
  });

  after(async () => {
    kc?.destroy();
    dc?.destroy();
    await kinesis?.stop();
    await ddb?.stop();
  });

  const put = async (stream: string, values: string[]) => {
    await kc.send(
      new PutRecordsCommand({
        StreamName: stream,
        Records: values.map((v) => ({ Data: Buffer.from(v), PartitionKey: `pk-${v}` })),
      }),
    );
  };

  const consumer = (stream: string, table: string, extra = '') =>
    startStream(`input:
  aws_kinesis:
    streams: [ ${stream} ]
    dynamodb:
      table: ${table}
      create: true
      endpoint: ${ddb.url}
    commit_period: 100ms
${kinesis.session()}
${extra}output:
  capture: {}
`);

  it('reads every shard with metadata, checkpoints what was delivered, and resumes after it', async () => {
    const stream = unique('st');
    const table = unique('ckpt');
    await kc.send(new CreateStreamCommand({ StreamName: stream, ShardCount: 2 }));
    const first = Array.from({ length: 20 }, (_, i) => `a${i}`);
    await put(stream, first);
    let run: RunningStream | null = await consumer(stream, table);
    try {
      const r = run;
      await waitFor(() => r.capture.messages.length >= 20, {
        message: 'the first records',
        timeoutMs: 15_000,
      });
      assert.deepEqual(r.capture.texts().sort(), [...first].sort());
      const msg = r.capture.messages.find((m) => m.text() === 'a3');
      assert.equal(msg?.getMeta('kinesis_stream'), stream);
      assert.equal(msg?.getMeta('kinesis_partition_key'), 'pk-a3');
      assert.match(String(msg?.getMeta('kinesis_shard')), /^shardId-/);
      assert.match(String(msg?.getMeta('kinesis_sequence_number')), /^\d+$/);
      const shards = new Set(r.capture.messages.map((m) => m.getMeta('kinesis_shard')));
      assert.equal(shards.size, 2, 'both shards read');
      await waitFor(
        async () => {
          const items = (await dc.send(new ScanCommand({ TableName: table }))).Items ?? [];
          return items.length === 2 && items.every((i) => i.SequenceNumber?.S && i.ClientID?.S);
        },
        { message: 'a checkpoint and a lease per shard', timeoutMs: 10_000 },
      );
      await r.stop();
      run = null;
      const released = (await dc.send(new ScanCommand({ TableName: table }))).Items ?? [];
      assert.ok(
        released.every((i) => i.ClientID === undefined),
        'a clean stop releases the shards',
      );

      const second = ['b0', 'b1', 'b2', 'b3'];
      await put(stream, second);
      run = await consumer(stream, table);
      const r2 = run;
      await waitFor(() => r2.capture.messages.length >= 4, { message: 'the new records', timeoutMs: 15_000 });
      assert.deepEqual(r2.capture.texts().sort(), second, 'only what came after the checkpoints');
    } finally {
      await run?.stop();
    }
  });

  it('a nacked record is delivered again', async () => {
    const stream = unique('st');
    await kc.send(new CreateStreamCommand({ StreamName: stream, ShardCount: 1 }));
    await put(stream, ['x', 'y', 'z']);
    const run = await consumer(stream, unique('ckpt'));
    let refused = false;
    run.capture.failWhen = (m) => {
      if (m.text() !== 'y' || refused) return false;
      refused = true;
      return true;
    };
    try {
      await waitFor(() => run.capture.messages.length >= 3, { message: 'all three', timeoutMs: 15_000 });
      assert.equal(run.capture.failures, 1);
      assert.deepEqual(run.capture.texts().sort(), ['x', 'y', 'z']);
    } finally {
      await run.stop();
    }
  });

  it('reports a Kinesis server that went away and is ready again once it is back', async () => {
    const stream = unique('st');
    await kc.send(new CreateStreamCommand({ StreamName: stream, ShardCount: 1 }));
    await put(stream, ['before']);
    let run: RunningStream | null = null;
    try {
      run = await consumer(stream, unique('ckpt'));
      const r = run;
      await waitFor(() => r.capture.messages.length >= 1, { message: 'the first record', timeoutMs: 15_000 });
      await kinesis.stop();
      const down = await waitFor(
        () => r.stream.statuses().find((s) => s.path.startsWith('input') && !s.connected && s.error)?.error,
        { message: 'the outage', timeoutMs: 10_000 },
      );
      assert.match(down ?? '', new RegExp(`cannot reach endpoint http://127\\.0\\.0\\.1:${kinesis.port}`));
      assert.equal(r.stream.isReady(), false);
      await kinesis.start();
      await kc.send(new CreateStreamCommand({ StreamName: stream, ShardCount: 1 }));
      await waitFor(() => r.stream.isReady(), { message: 'ready again', timeoutMs: 20_000 });
    } finally {
      await kinesis.start();
      await run?.stop();
    }
  });

  it('lint: a checkpoint table is required; explicit shards and input batching are refused', () => {
    const lint = (text: string) =>
      lintStreamConfig(parseYaml(text), {
        provider: schemaProvider(registry),
        bloblang: bloblangChecker,
      }).map(formatApiLint);
    const out = 'output:\n  drop: {}\n';
    assert.deepEqual(lint(`input:\n  aws_kinesis:\n    streams: [ s ]\n${out}`), [
      '(3,1) dynamodb.table is required: nekton keeps the checkpoints of the shards in a DynamoDB table',
    ]);
    assert.match(
      lint(`input:\n  aws_kinesis:\n    streams: [ 's:0' ]\n    dynamodb:\n      table: t\n${out}`).join(),
      /explicit shards \('s:0'\) are not supported/,
    );
    assert.match(
      lint(
        `input:\n  aws_kinesis:\n    streams: [ s ]\n    dynamodb:\n      table: t\n    batching:\n      count: 10\n${out}`,
      ).join(),
      /batching on the aws_kinesis input is not supported/,
    );
    assert.deepEqual(
      lint(`input:\n  aws_kinesis:\n    streams: [ s ]\n    dynamodb:\n      table: t\n${out}`),
      [],
    );
  });
});
