// The nats_request_reply processor against the local nats-server (a responder subscribed by the
// test), and across a restart of a private server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import { spec } from '../../../src/components/processors/nats_request_reply.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { isReachable, requireService, waitFor } from '../../helpers/kit.js';
import { configOf } from '../reference.js';
import { client, NATS_URL, PrivateNatsServer, unique } from './harness.js';

async function build(config: Record<string, unknown>): Promise<Processor> {
  const ctx = createTestContext({ path: 'root.pipeline.processors.0' });
  return ctx.buildProcessor({
    type: 'nats_request_reply',
    label: '',
    config: configOf(spec, config),
    processors: [],
    path: 'root.pipeline.processors.0',
    raw: {},
  });
}

/** Answers requests on `subject` with the upper-cased payload, echoing two headers back. */
function responder(nc: NatsConnection, subject: string, seen: string[] = []): void {
  nc.subscribe(subject, {
    callback: (_err, msg) => {
      seen.push(msg.subject);
      const h = natsHeaders();
      h.set('X-Echo', msg.headers?.get('X-Sent') || 'none');
      h.set('X-Meta', msg.headers?.get('tenant') || 'none');
      msg.respond(msg.string().toUpperCase(), { headers: h });
    },
  });
}

describe('nats_request_reply', () => {
  let nc: NatsConnection | null = null;

  before(async () => {
    if (await isReachable('nats')) nc = await client();
  });
  after(async () => {
    await nc?.close();
  });

  it('replaces each message with its reply; headers and metadata go out, reply headers come back', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const base = unique('rr');
    const seen: string[] = [];
    responder(nc as NatsConnection, `${base}.>`, seen);
    await nc?.flush();
    const proc = await build({
      urls: [NATS_URL],
      subject: `${base}.$\{! @kind }`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      headers: { 'X-Sent': '${! content() }' },
      metadata: { include_prefixes: ['ten'] },
      inbox_prefix: `_INBOX_${base}`,
    });
    try {
      const a = new Message('hello');
      a.setMeta('kind', 'greet');
      a.setMeta('tenant', 't1');
      const b = new Message('world');
      b.setMeta('kind', 'other');
      const [out] = await proc.process([a, b]);
      assert.deepEqual(
        out?.map((m) => m.text()),
        ['HELLO', 'WORLD'],
      );
      assert.equal(out?.[0]?.getMeta('X-Echo'), 'hello');
      assert.equal(out?.[0]?.getMeta('X-Meta'), 't1');
      assert.equal(out?.[1]?.getMeta('X-Meta'), 'none', 'metadata outside the filter is not sent');
      assert.equal(out?.[0]?.getMeta('kind'), 'greet', 'the message keeps its metadata');
      assert.deepEqual(seen.sort(), [`${base}.greet`, `${base}.other`]);
    } finally {
      await proc.close();
    }
  });

  it('flags a message that finds no responder or gets no reply in time, keeping its content', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const silent = unique('rr_silent');
    // Subscribed but never answering: the request times out.
    nc?.subscribe(silent, { callback: () => undefined });
    await nc?.flush();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    const proc = await build({ urls: [NATS_URL], subject: '${! @to }', timeout: '200ms' });
    try {
      const none = new Message('a');
      none.setMeta('to', unique('rr_nobody'));
      const slow = new Message('b');
      slow.setMeta('to', silent);
      const [out] = await proc.process([none, slow]);
      assert.match(String(out?.[0]?.error?.message), /no responders|503/i);
      assert.match(String(out?.[1]?.error?.message), /timeout|timed out/i);
      assert.deepEqual(
        out?.map((m) => m.text()),
        ['a', 'b'],
      );
    } finally {
      await proc.close();
    }
  });

  it('reconnects on the next message after the server restarts; an unreachable server names the address', async (t) => {
    if (!(await requireService(t, 'nats'))) return;
    const server = await PrivateNatsServer.start();
    let own: NatsConnection | null = null;
    const proc = await build({ urls: [server.url], subject: 'svc', timeout: '1s' });
    try {
      own = await client(server.url);
      responder(own, 'svc');
      await own.flush();
      const [first] = await proc.process([new Message('one')]);
      assert.equal(first?.[0]?.text(), 'ONE');
      await own.close();
      own = null;
      await server.kill();
      const [down] = await proc.process([new Message('two')]);
      assert.match(String(down?.[0]?.error?.message), new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      await server.restart();
      own = await client(server.url);
      responder(own, 'svc');
      await own.flush();
      const again = await waitFor(
        async () => {
          const [out] = await proc.process([new Message('three')]);
          return out?.[0]?.error ? null : out?.[0]?.text();
        },
        { message: 'a reply after the restart', timeoutMs: 10_000 },
      );
      assert.equal(again, 'THREE');
    } finally {
      await proc.close();
      await own?.close();
      await server.dispose();
    }
  });
});
