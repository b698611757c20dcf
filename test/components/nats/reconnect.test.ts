// NATS components when the server goes away: a private nats-server (never the shared one) is
// killed and restarted under running streams, a KV cache and a JetStream output.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { spec as cacheSpec } from '../../../src/components/caches/nats_kv.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestContext } from '../../helpers/context.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { configOf } from '../reference.js';
import { PrivateNatsServer, type RunningStream, startStream } from './harness.js';

/** A client that rides out the test's own outages. */
function reconnecting(server: PrivateNatsServer): Promise<NatsConnection> {
  return connect({ servers: server.url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
}

/** Waits for the input to report the outage. */
async function inputDown(run: RunningStream, port: number): Promise<void> {
  const status = await waitFor(
    () => run.stream.statuses().find((s) => s.path.startsWith('input') && !s.connected && s.error),
    { message: 'the input to report the outage', timeoutMs: 5000 },
  );
  assert.match(status?.error ?? '', new RegExp(`127\\.0\\.0\\.1:${port}`));
  assert.equal(run.stream.isReady(), false);
  assert.equal(run.stream.active, true, 'still running, retrying');
}

describe('nats reconnects (private nats-server)', () => {
  it('nats input and output: /ready is false while the server is down, true after, and traffic resumes', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    let consumer: RunningStream | null = null;
    let producer: RunningStream | null = null;
    try {
      consumer = await startStream(`input:
  nats:
    urls: [ ${server.url} ]
    subject: tick
output:
  capture: {}
`);
      producer = await startStream(`input:
  generate:
    interval: 20ms
    mapping: 'root = counter()'
output:
  nats:
    urls: [ ${server.url} ]
    subject: tick
`);
      const got = consumer.capture;
      await waitFor(() => got.messages.length >= 3, {
        message: 'messages before the outage',
        timeoutMs: 5000,
      });
      await server.kill();
      await inputDown(consumer, server.port);
      await server.restart();
      const before = got.messages.length;
      // Core NATS keeps nothing while down; what is published after the restart must arrive.
      await waitFor(() => got.messages.length >= before + 5, {
        message: 'messages after the restart',
        timeoutMs: 15_000,
      });
      await waitFor(() => consumer?.stream.isReady() && producer?.stream.isReady(), {
        message: 'both ready',
        timeoutMs: 5000,
      });
      assert.equal(got.messages.at(-1)?.getMeta('nats_subject'), 'tick');
    } finally {
      await producer?.stop();
      await consumer?.stop();
      await server.dispose();
    }
  });

  it('idle nats and nats_jetstream outputs report a lost server and reconnect without a write', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    const runs: RunningStream[] = [];
    try {
      for (const output of ['nats', 'nats_jetstream']) {
        // The input never produces anything, so the output never writes.
        runs.push(
          await startStream(`input:
  generate:
    interval: 1h
    mapping: root = "never"
output:
  ${output}:
    urls: [ ${server.url} ]
    subject: idle
`),
        );
      }
      const outputs = () => runs.map((r) => r.stream.statuses().find((s) => s.path.startsWith('output')));
      await waitFor(() => outputs().every((s) => s?.connected), {
        message: 'both outputs connected',
        timeoutMs: 5000,
      });
      await server.kill();
      const down = await waitFor(() => (outputs().every((s) => s && !s.connected) ? outputs() : null), {
        message: 'both idle outputs to report the outage',
        timeoutMs: 5000,
      });
      for (const s of down ?? []) assert.match(s?.error ?? '', new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      await server.restart();
      await waitFor(() => runs.every((r) => r.stream.isReady()), {
        message: 'both ready again, without a write',
        timeoutMs: 20_000,
      });
    } finally {
      for (const r of runs) await r.stop();
      await server.dispose();
    }
  });

  it('nats_jetstream output: messages written across a server restart are all stored', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    const nc = await reconnecting(server);
    let producer: RunningStream | null = null;
    try {
      await (await jetstreamManager(nc)).streams.add({ name: 'OUT', subjects: ['out.>'] });
      producer = await startStream(`input:
  generate:
    count: 200
    interval: 5ms
    mapping: 'root = counter()'
output:
  nats_jetstream:
    urls: [ ${server.url} ]
    subject: 'out.\${! content() }'
`);
      const stored = async () => (await (await jetstreamManager(nc)).streams.info('OUT')).state.messages;
      await waitFor(async () => (await stored()) >= 20, { message: 'publishing under way', timeoutMs: 5000 });
      const atKill = await stored();
      await server.kill();
      assert.ok(atKill < 200, `killed mid-stream (${atKill} of 200 stored)`);
      await server.restart();
      await waitFor(async () => (await stored()) >= 200, {
        message: 'at least 200 stored',
        timeoutMs: 20_000,
      });
      // At-least-once: a publish confirmed just before the kill may be stored twice, none missing.
      const seen = new Set<string>();
      const consumer = await (await jetstreamManager(nc)).consumers.add('OUT', { ack_policy: 'none' });
      const messages = await (await jetstream(nc).consumers.get('OUT', consumer.name)).fetch({
        max_messages: 1000,
        expires: 1000,
      });
      for await (const m of messages) {
        seen.add(m.string());
        if (m.info.pending === 0) break;
      }
      for (let i = 1; i <= 200; i++) assert.ok(seen.has(String(i)), `message ${i} stored`);
    } finally {
      await producer?.stop();
      await nc.close().catch(() => undefined);
      await server.dispose();
    }
  });

  it('nats_kv cache: fails naming the address while the server is down, works again after', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    const nc = await reconnecting(server);
    const ctx = createTestContext({ path: 'root.cache_resources.0' });
    let cache: Cache | null = null;
    try {
      await new Kvm(nc).create('kvre');
      cache = await ctx.buildCache({
        type: 'nats_kv',
        label: 'kv',
        config: configOf(cacheSpec, { urls: [server.url], bucket: 'kvre' }),
        processors: [],
        path: 'root.cache_resources.0',
        raw: {},
      });
      const c = cache;
      await c.set('k', Buffer.from('v1'));
      await server.kill();
      await assert.rejects(c.get('k'), new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      await server.restart();
      const value = await waitFor(() => c.get('k'), { message: 'the cache to work again' });
      assert.equal(Buffer.from(value ?? []).toString(), 'v1');
      await c.set('k', Buffer.from('v2'));
      assert.equal(Buffer.from((await c.get('k')) ?? []).toString(), 'v2');
    } finally {
      await cache?.close();
      await nc.close().catch(() => undefined);
      await server.dispose();
    }
  });
});
