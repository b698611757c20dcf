// redis_streams input and output against the local Redis, through the engine.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { RedisStreamsReader } from '../../../src/components/inputs/redis_streams.js';
import { redisTarget } from '../../../src/components/redis/client.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { Admin, pendingCount, REDIS_URL, readStream, startStream, uniqueName } from './helpers.js';

let admin: Admin;

function pipeYaml(opts: {
  source: string;
  dest: string;
  group: string;
  clientId?: string;
  clientName?: string;
  replay?: boolean;
  processors?: string;
}): string {
  return `
input:
  redis_streams:
    url: ${REDIS_URL}
    streams: [ '${opts.source}' ]
    consumer_group: '${opts.group}'
    client_id: '${opts.clientId ?? 'w1'}'
    client_name: '${opts.clientName ?? 'nekton-test'}'
    commit_period: 50ms
    timeout: 100ms
    auto_replay_nacks: ${opts.replay ?? true}
pipeline:
  processors: ${opts.processors ?? '[]'}
output:
  redis_streams:
    url: ${REDIS_URL}
    stream: '${opts.dest}'
    client_name: '${opts.clientName ?? 'nekton-test'}'
`;
}

describe('redis_streams', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('carries entries stream to stream with their fields as metadata, and acks them', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('src');
    const dest = uniqueName('dst');
    admin.track(source, dest);
    for (let i = 0; i < 20; i++)
      await admin.send('XADD', source, '*', 'body', `msg-${i}`, 'color', i % 2 ? 'red' : 'blue');
    const run = await startStream(
      pipeYaml({
        source,
        dest,
        group: 'g',
        processors: `[ { mutation: 'meta source_id = @redis_stream' } ]`,
      }),
    );
    try {
      await waitFor(async () => (await admin.send<number>('XLEN', dest)) === 20, {
        message: '20 entries in the destination',
      });
      const entries = await readStream(admin, dest);
      const sourceIds = (await readStream(admin, source)).map(([id]) => id);
      assert.deepEqual(
        entries.map(([, f]) => f.body),
        Array.from({ length: 20 }, (_, i) => `msg-${i}`),
      );
      const first = entries[1]?.[1];
      assert.equal(first?.color, 'red');
      // The input's metadata (redis_stream: the source entry id) travels as a field too.
      assert.equal(first?.redis_stream, sourceIds[1]);
      assert.equal(first?.source_id, sourceIds[1]);
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
    } finally {
      await run.stop();
    }
  });

  it('leaves an entry pending while its delivery fails and delivers it again', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('src');
    const dest = uniqueName('dst');
    admin.track(source, dest);
    // XADD to a string key fails with WRONGTYPE: every write fails until the key is deleted.
    await admin.send('SET', dest, 'not a stream');
    for (let i = 0; i < 5; i++) await admin.send('XADD', source, '*', 'body', `m${i}`);
    // Without auto_replay_nacks the nack reaches the input, which delivers the pending entry again.
    const run = await startStream(pipeYaml({ source, dest, group: 'g', replay: false }));
    try {
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 5, {
        message: 'entries read and pending',
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(await pendingCount(admin, source, 'g'), 5, 'failed entries must not be acked');
      await admin.send('DEL', dest);
      await waitFor(async () => (await admin.send<number>('XLEN', dest).catch(() => 0)) >= 5, {
        message: 'redelivered entries',
      });
      const bodies = new Set((await readStream(admin, dest)).map(([, f]) => f.body));
      assert.deepEqual([...bodies].sort(), ['m0', 'm1', 'm2', 'm3', 'm4']);
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
    } finally {
      await run.stop();
    }
  });

  it('re-reads its own pending entries after a restart (same client_id)', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('src');
    const dest = uniqueName('dst');
    admin.track(source, dest);
    await admin.send('XGROUP', 'CREATE', source, 'g', '0', 'MKSTREAM');
    for (let i = 0; i < 3; i++) await admin.send('XADD', source, '*', 'body', `old-${i}`);
    // A previous run of consumer w1 read these and died before acking.
    await admin.send('XREADGROUP', 'GROUP', 'g', 'w1', 'COUNT', '10', 'STREAMS', source, '>');
    await admin.send('XADD', source, '*', 'body', 'new');
    const run = await startStream(pipeYaml({ source, dest, group: 'g', clientId: 'w1' }));
    try {
      await waitFor(async () => (await admin.send<number>('XLEN', dest)) === 4, { message: '4 entries' });
      const bodies = (await readStream(admin, dest)).map(([, f]) => f.body);
      assert.deepEqual(bodies, ['old-0', 'old-1', 'old-2', 'new']);
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
    } finally {
      await run.stop();
    }
  });

  it('claims entries a dead consumer left pending once they are idle', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('src');
    admin.track(source);
    await admin.send('XGROUP', 'CREATE', source, 'g', '0', 'MKSTREAM');
    for (let i = 0; i < 3; i++) await admin.send('XADD', source, '*', 'body', `orphan-${i}`);
    await admin.send('XREADGROUP', 'GROUP', 'g', 'dead', 'COUNT', '10', 'STREAMS', source, '>');
    const target = await redisTarget({
      url: REDIS_URL,
      kind: 'simple',
      master: '',
      client_name: 'nekton-test',
      tls: {
        enabled: false,
        skip_cert_verify: false,
        enable_renegotiation: false,
        root_cas: '',
        root_cas_file: '',
        client_certs: [],
      },
    });
    const reader = new RedisStreamsReader(
      {
        ...target,
        url: REDIS_URL,
        kind: 'simple',
        master: '',
        client_name: 'nekton-test',
        tls: {
          enabled: false,
          skip_cert_verify: false,
          enable_renegotiation: false,
          root_cas: '',
          root_cas_file: '',
          client_certs: [],
        },
        body_key: 'body',
        streams: [source],
        auto_replay_nacks: true,
        limit: 10,
        client_id: 'alive',
        consumer_group: 'g',
        create_streams: true,
        start_from_oldest: true,
        commit_period: 50,
        timeout: 100,
      },
      target,
      pino({ level: 'silent' }),
      { claimIdleMs: 100, claimEveryMs: 20 },
    );
    try {
      await reader.connect();
      const got: string[] = [];
      const deadline = Date.now() + 5000;
      while (got.length < 3 && Date.now() < deadline) {
        const txn = await reader.read();
        assert.ok(txn);
        got.push(txn.batch[0]!.text());
        await txn.ack(null);
      }
      assert.deepEqual(got.sort(), ['orphan-0', 'orphan-1', 'orphan-2']);
    } finally {
      await reader.close();
    }
    assert.equal(await pendingCount(admin, source, 'g'), 0);
  });

  it('resumes without loss after its connections are killed mid-stream', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('src');
    const dest = uniqueName('dst');
    const clientName = `nekton-test-kill-${process.pid}`;
    admin.track(source, dest);
    const run = await startStream(pipeYaml({ source, dest, group: 'g', clientName }));
    try {
      for (let i = 0; i < 100; i++) await admin.send('XADD', source, '*', 'body', `k${i}`);
      await waitFor(async () => (await admin.send<number>('XLEN', dest).catch(() => 0)) > 0, {
        message: 'some delivered',
      });
      assert.ok(
        (await admin.killClients(clientName)) >= 2,
        'expected to kill the input and output connections',
      );
      for (let i = 100; i < 200; i++) await admin.send('XADD', source, '*', 'body', `k${i}`);
      await waitFor(
        async () => new Set((await readStream(admin, dest)).map(([, f]) => f.body)).size === 200,
        { message: 'all 200 delivered', timeoutMs: 15000 },
      );
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
      assert.ok(run.stream.isReady(), 'connected again');
    } finally {
      await run.stop();
    }
  });

  it('reports a closed port clearly and keeps retrying without crashing', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const run = await startStream(`
input:
  redis_streams:
    url: redis://127.0.0.1:1
    streams: [ never ]
    consumer_group: g
output:
  drop: {}
`);
    try {
      const status = String(
        await waitFor(() => run.stream.statuses().find((s) => s.error)?.error, {
          message: 'a connection error',
        }),
      );
      assert.match(status, /redis:\/\/127\.0\.0\.1:1/);
      assert.match(status, /ECONNREFUSED|refused/i);
      assert.equal(run.stream.isReady(), false);
      assert.equal(run.stream.active, true);
    } finally {
      await run.stop();
    }
  });
});
