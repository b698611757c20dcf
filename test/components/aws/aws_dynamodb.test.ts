// The aws_dynamodb output and cache against dynalite, a DynamoDB emulator from npm run by the
// test itself (a dev dependency, in memory).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CreateTableCommand, DynamoDBClient, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { spec as cacheSpec } from '../../../src/components/caches/aws_dynamodb.js';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestContext } from '../../helpers/context.js';
import { freePort, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../nats/harness.js';
import { configOf } from '../reference.js';
import { PrivateEmulator } from './emulator.js';

const interp = (query: string) => `$\{! ${query} }`;
const uniqueTable = () => `nekton_${randomBytes(4).toString('hex')}`;

function outputError(run: RunningStream): string | undefined {
  return run.stream.statuses().find((s) => s.path.startsWith('output') && !s.connected && s.error)?.error;
}

describe('aws_dynamodb (dynalite)', () => {
  let ddb: PrivateEmulator;
  let client: DynamoDBClient;

  const createTable = async (name: string, key = 'id') => {
    await client.send(
      new CreateTableCommand({
        TableName: name,
        AttributeDefinitions: [{ AttributeName: key, AttributeType: 'S' }],
        KeySchema: [{ AttributeName: key, KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    return name;
  };
  const items = async (table: string) =>
    ((await client.send(new ScanCommand({ TableName: table }))).Items ?? []).sort((a, b) =>
      String(a.id?.S).localeCompare(String(b.id?.S)),
    );

  before(async () => {
    ddb = await PrivateEmulator.dynamodb();
    client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: ddb.url,
      credentials: { accessKeyId: 'TESTID', secretAccessKey: 'TESTSECRET' },
    });
  });

  after(async () => {
    client?.destroy();
    await ddb?.stop();
  });

  it('output: one item per message, string columns interpolated, JSON paths as typed attributes, a TTL', async () => {
    const table = await createTable(uniqueTable());
    const run = await startStream(`input:
  generate:
    count: 30
    interval: ''
    mapping: 'root = {"id": "doc" + counter().string(), "n": counter(), "tags": ["a", "b"], "ok": true, "nested": {"x": null}}'
output:
  aws_dynamodb:
    table: ${table}
    string_columns:
      id: '${interp('this.id')}'
      raw: '${interp('content()')}'
    json_map_columns:
      n: n
      tags: tags
      ok: ok
      nested: nested
    ttl: 1h
    ttl_key: expires
    batching:
      count: 30
${ddb.session()}
`);
    try {
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 10_000 });
      const stored = await items(table);
      assert.equal(stored.length, 30, 'a batch of 30 is written in two requests of at most 25');
      const first = stored.find((i) => i.id?.S === 'doc1');
      assert.deepEqual(first?.n, { S: '1' }, 'numbers as strings, as the reference stores them');
      assert.deepEqual(first?.tags, { L: [{ S: 'a' }, { S: 'b' }] });
      assert.deepEqual(first?.ok, { BOOL: true });
      assert.deepEqual(first?.nested, { M: { x: { NULL: true } } });
      assert.match(String(first?.raw?.S), /^\{"id":"doc1"/);
      const expires = Number(first?.expires?.N);
      assert.ok(
        expires > Date.now() / 1000 + 3000 && expires < Date.now() / 1000 + 3700,
        `expires ${expires}`,
      );
    } finally {
      await run.stop();
    }
  });

  it('output: a missing table shows on the status naming the table; the output delivers once it exists', async () => {
    const table = uniqueTable();
    const run = await startStream(`input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": counter().string()}'
output:
  aws_dynamodb:
    table: ${table}
    string_columns:
      id: '${interp('this.id')}'
${ddb.session()}
`);
    try {
      const err = await waitFor(() => outputError(run), { message: 'the table error', timeoutMs: 10_000 });
      assert.match(
        err ?? '',
        new RegExp(`table '${table}' does not exist at http://127\\.0\\.0\\.1:${ddb.port}`),
      );
      await createTable(table);
      await waitFor(() => !run.stream.active, { message: 'the stream to end', timeoutMs: 15_000 });
      assert.deepEqual(
        (await items(table)).map((i) => i.id?.S),
        ['1', '2', '3'],
      );
    } finally {
      await run.stop();
    }
  });

  it('output: reports a server that went away and writes again once it is back', async () => {
    const table = await createTable(uniqueTable());
    let run: RunningStream | null = null;
    try {
      run = await startStream(`input:
  generate:
    count: 60
    interval: 20ms
    mapping: 'root = {"id": counter().string()}'
output:
  aws_dynamodb:
    table: ${table}
    string_columns:
      id: '${interp('this.id')}'
${ddb.session()}
`);
      const r = run;
      await waitFor(async () => (await items(table)).length >= 3, {
        message: 'writes under way',
        timeoutMs: 10_000,
      });
      await ddb.stop();
      const down = await waitFor(() => outputError(r), { message: 'the outage', timeoutMs: 10_000 });
      assert.match(down ?? '', new RegExp(`127\\.0\\.0\\.1:${ddb.port}`));
      assert.equal(r.stream.isReady(), false);
      // A restarted emulator has lost its tables: the output waits until the table is back.
      await ddb.start();
      await createTable(table);
      await waitFor(() => !r.stream.active, { message: 'the stream to end', timeoutMs: 30_000 });
      const ids = new Set((await items(table)).map((i) => i.id?.S));
      assert.ok(ids.has('60'), 'the last message was written after the restart');
      assert.equal(r.stream.isReady(), false, 'the stream has ended');
    } finally {
      await ddb.start();
      await run?.stop();
    }
  });

  it('lint: needs a column', () => {
    const lint = (text: string) =>
      lintStreamConfig(parseYaml(text), {
        provider: schemaProvider(registry),
        bloblang: bloblangChecker,
      }).map(formatApiLint);
    assert.deepEqual(
      lint('input:\n  generate:\n    mapping: root = 1\noutput:\n  aws_dynamodb:\n    table: t\n'),
      ['(6,1) at least one of string_columns or json_map_columns is required'],
    );
  });

  describe('cache', () => {
    const build = async (config: Record<string, unknown>): Promise<Cache> =>
      createTestContext({ path: 'root.cache_resources.0' }).buildCache({
        type: 'aws_dynamodb',
        label: 'c',
        config: configOf(cacheSpec, {
          endpoint: ddb.url,
          region: 'us-east-1',
          credentials: { id: 'TESTID', secret: 'TESTSECRET' },
          ...config,
        }),
        processors: [],
        path: 'root.cache_resources.0',
        raw: {},
      });
    const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());

    it('gets, sets, adds atomically, deletes, and stores the expiry time', async () => {
      const table = await createTable(uniqueTable(), 'key');
      const cache = await build({
        table,
        hash_key: 'key',
        data_key: 'data',
        ttl_key: 'ttl',
        default_ttl: '1h',
      });
      try {
        assert.equal(await cache.get('a'), undefined);
        await cache.set('a', Buffer.from('1'));
        assert.equal(text(await cache.get('a')), '1');
        const results = await Promise.all([
          cache.add('b', Buffer.from('x')),
          cache.add('b', Buffer.from('y')),
        ]);
        assert.deepEqual(results.sort(), [false, true], 'exactly one of two concurrent adds wins');
        assert.equal(await cache.add('a', Buffer.from('2')), false);
        assert.equal(text(await cache.get('a')), '1');
        const raw = await client.send(new GetItemCommand({ TableName: table, Key: { key: { S: 'a' } } }));
        const ttl = Number(raw.Item?.ttl?.N);
        assert.ok(ttl > Date.now() / 1000 + 3000, `a default TTL of 1h: ${ttl}`);
        await cache.set('short', Buffer.from('z'), 1);
        await waitFor(async () => (await cache.get('short')) === undefined, {
          message: 'an expired item to read as absent',
          timeoutMs: 5000,
        });
        await cache.delete('a');
        assert.equal(await cache.get('a'), undefined);
      } finally {
        await cache.close();
      }
    });

    it('fails naming the table, and the endpoint after its retries', async () => {
      const missing = await build({ table: 'no_such_table_x', hash_key: 'k', data_key: 'd' });
      await assert.rejects(
        missing.get('k'),
        /table 'no_such_table_x'.*does not exist at http:\/\/127\.0\.0\.1/,
      );
      await missing.close();
      const port = await freePort();
      const unreachable = await build({
        table: 't_x',
        hash_key: 'k',
        data_key: 'd',
        endpoint: `http://127.0.0.1:${port}`,
        retries: { initial_interval: '10ms', max_interval: '20ms', max_elapsed_time: '100ms' },
      });
      await assert.rejects(
        unreachable.set('k', Buffer.from('v')),
        new RegExp(`cannot reach endpoint http://127\\.0\\.0\\.1:${port}`),
      );
      await unreachable.close();
    });
  });
});
