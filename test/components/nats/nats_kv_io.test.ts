// The nats_kv input (a watch of a bucket) and output (puts) against the local nats-server, and
// both across a restart of a private server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { isReachable, requireService, waitFor } from '../../helpers/kit.js';
import { client, NATS_URL, PrivateNatsServer, type RunningStream, startStream, unique } from './harness.js';

const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());

describe('nats_kv input and output', () => {
  let nc: NatsConnection | null = null;
  const buckets: string[] = [];

  async function bucket(history = 5): Promise<[string, KV]> {
    const name = unique('nekton_kvio');
    buckets.push(name);
    return [name, await new Kvm(nc as NatsConnection).create(name, { history })];
  }

  before(async () => {
    if (await isReachable('nats')) nc = await client();
  });

  after(async () => {
    if (!nc) return;
    for (const b of buckets) await (await new Kvm(nc).open(b)).destroy().catch(() => undefined);
    await nc.close();
  });

  it('input: the latest value per matching key first, then updates and deletes, with metadata', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const [name, kv] = await bucket();
    await kv.put('a.one', 'old');
    await kv.put('a.one', 'new');
    await kv.put('a.two', '2');
    await kv.put('b.other', 'not watched');
    const run = await startStream(`input:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${name}
    key: 'a.>'
output:
  capture: {}
`);
    try {
      const got = run.capture;
      await waitFor(() => got.messages.length >= 2, { message: 'the initial values' });
      assert.deepEqual(got.texts(), ['new', '2']);
      const first = got.messages[0];
      assert.equal(first?.getMeta('nats_kv_key'), 'a.one');
      assert.equal(first?.getMeta('nats_kv_bucket'), name);
      assert.equal(first?.getMeta('nats_kv_revision'), 2);
      assert.equal(first?.getMeta('nats_kv_operation'), 'KeyValuePutOp');
      assert.match(String(first?.getMeta('nats_kv_created')), /^\d{4}-\d\d-\d\dT/);
      await kv.put('a.two', '3');
      await kv.delete('a.one');
      await waitFor(() => got.messages.length >= 4, { message: 'the update and the delete' });
      assert.deepEqual(got.texts().slice(2), ['3', '']);
      assert.equal(got.messages[3]?.getMeta('nats_kv_operation'), 'KeyValueDeleteOp');
      assert.equal(got.messages[3]?.getMeta('nats_kv_key'), 'a.one');
    } finally {
      await run.stop();
    }
  });

  it('input: include_history, ignore_deletes and meta_only', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const [name, kv] = await bucket();
    await kv.put('k', 'v1');
    await kv.put('k', 'v2');
    await kv.delete('k');
    await kv.put('k', 'v3');
    const run = await startStream(`input:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${name}
    include_history: true
    ignore_deletes: true
output:
  capture: {}
`);
    const meta = await startStream(`input:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${name}
    meta_only: true
output:
  capture: {}
`);
    try {
      await waitFor(() => run.capture.messages.length >= 3, { message: 'the history' });
      assert.deepEqual(run.capture.texts(), ['v1', 'v2', 'v3']);
      await waitFor(() => meta.capture.messages.length >= 1, { message: 'the metadata' });
      assert.equal(meta.capture.texts()[0], '');
      assert.equal(meta.capture.messages[0]?.getMeta('nats_kv_revision'), 4);
    } finally {
      await run.stop();
      await meta.stop();
    }
  });

  it('input: a nacked message is delivered again', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const [name, kv] = await bucket();
    for (const k of ['x', 'y', 'z']) await kv.put(k, k);
    let failed = false;
    const run = await startStream(`input:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${name}
output:
  capture: {}
`);
    run.capture.failWhen = (m) => {
      if (failed || m.text() !== 'y') return false;
      failed = true;
      return true;
    };
    try {
      await waitFor(() => run.capture.messages.length >= 3, { message: 'all three' });
      assert.equal(run.capture.failures, 1);
      assert.deepEqual([...run.capture.texts()].sort(), ['x', 'y', 'z']);
    } finally {
      await run.stop();
    }
  });

  it('output: puts each message under its interpolated key', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const [name, kv] = await bucket();
    const run = await startStream(`input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": counter()}'
output:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${name}
    key: 'item.\${! this.id }'
`);
    try {
      await waitFor(async () => (await kv.get('item.3'))?.value.length, { message: 'the third put' });
      for (const id of [1, 2, 3]) assert.equal(text((await kv.get(`item.${id}`))?.value), `{"id":${id}}`);
    } finally {
      await run.stop();
    }
  });

  it('a bucket that does not exist is an error naming it, on the status', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const missing = unique('nekton_missing');
    const run = await startStream(`input:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${missing}
output:
  nats_kv:
    urls: [ ${NATS_URL} ]
    bucket: ${missing}
    key: k
`);
    try {
      const statuses = await waitFor(
        () => {
          const st = run.stream.statuses();
          return st.length >= 2 && st.every((s) => s.error) ? st : null;
        },
        { message: 'both report the missing bucket' },
      );
      for (const s of statuses ?? []) assert.match(s.error ?? '', new RegExp(`bucket '${missing}'`));
      assert.equal(run.stream.isReady(), false);
    } finally {
      await run.stop();
    }
  });

  it('input and output ride out a server restart; the watch resumes without missing updates', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    let admin: NatsConnection | null = null;
    const runs: RunningStream[] = [];
    try {
      admin = await client(server.url);
      const kv = await new Kvm(admin).create('restart', { history: 10 });
      await kv.put('w.0', '0');
      const watcher = await startStream(`input:
  nats_kv:
    urls: [ ${server.url} ]
    bucket: restart
    key: 'w.>'
output:
  capture: {}
`);
      runs.push(watcher);
      const writer = await startStream(`input:
  generate:
    interval: 50ms
    mapping: 'root = counter().string()'
output:
  nats_kv:
    urls: [ ${server.url} ]
    bucket: restart
    key: 'out.\${! content() }'
`);
      runs.push(writer);
      await waitFor(() => watcher.capture.messages.length >= 1, { message: 'the initial value' });
      await admin.close();
      admin = null;
      await server.kill();
      await waitFor(() => runs.every((r) => !r.stream.isReady()), { message: 'both not ready' });
      await server.restart();
      admin = await client(server.url);
      const kv2 = await new Kvm(admin).open('restart');
      // Written while the watcher may still be reconnecting: the resumed watch must deliver it.
      await kv2.put('w.1', '1');
      await kv2.put('w.1', '1b');
      await waitFor(() => watcher.capture.texts().includes('1b'), {
        message: 'updates after the restart',
        timeoutMs: 15_000,
      });
      assert.deepEqual(watcher.capture.texts(), ['0', '1', '1b'], 'each update once, none replayed');
      await waitFor(() => runs.every((r) => r.stream.isReady()), {
        message: 'both ready again',
        timeoutMs: 15_000,
      });
      const before = [];
      for await (const k of await kv2.keys('out.>')) before.push(k);
      const n = before.length;
      await waitFor(
        async () => {
          const keys = [];
          for await (const k of await kv2.keys('out.>')) keys.push(k);
          return keys.length > n;
        },
        { message: 'the output writes after the restart', timeoutMs: 15_000 },
      );
    } finally {
      for (const r of runs) await r.stop();
      await admin?.close();
      await server.dispose();
    }
  });
  it('input with max_reconnects: the client reconnects by itself and the watch goes on', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    let admin: NatsConnection = await client(server.url);
    await new Kvm(admin).create('r', { history: 10 });
    const run = await startStream(`input:
  nats_kv:
    urls: [ ${server.url} ]
    max_reconnects: -1
    bucket: r
output:
  capture: {}
`);
    try {
      await (await new Kvm(admin).open('r')).put('a', '1');
      await waitFor(() => run.capture.messages.length >= 1, { message: 'the first update' });
      await admin.close();
      await server.kill();
      await server.restart();
      admin = await client(server.url);
      await (await new Kvm(admin).open('r')).put('a', '2');
      await waitFor(() => run.capture.texts().includes('2'), {
        message: 'the update after the restart',
        timeoutMs: 15_000,
      });
      assert.deepEqual(run.capture.texts(), ['1', '2']);
    } finally {
      await run.stop();
      await admin.close();
      await server.dispose();
    }
  });
});
