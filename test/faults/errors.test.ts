// A processor that throws, a mapping that errors on some messages and an output that hangs: the
// stream keeps going, every message still arrives, and the errors show in the stream's metrics
// (`GET /streams/{id}/stats`) and status (`GET /streams/{id}`).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ComponentSpec } from '../../src/config/spec.js';
import type { Processor } from '../../src/engine/component.js';
import { Registry } from '../../src/engine/registry.js';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { json, send, startService, testRegistry } from '../streams/support.js';

/** `test_thrower`: throws on every message whose `n` is a multiple of `every`. */
const thrower: ComponentSpec<{ every: number }> = {
  name: 'test_thrower',
  kind: 'processor',
  status: 'stable',
  summary: 'test double: throws on chosen messages',
  fields: [{ name: 'every', type: 'int', kind: 'scalar', description: '', default: 5 }],
  build(config): Processor {
    return {
      process(batch) {
        for (const m of batch) {
          const n = (m.structured() as { n: number }).n;
          if (n % config.every === 0) throw new Error(`thrower refused ${n}`);
        }
        return [batch];
      },
      close: async () => undefined,
    };
  },
};

function sumOf(stats: Record<string, unknown>, name: string): number {
  let total = 0;
  for (const [key, value] of Object.entries(stats))
    if (key === name || key.startsWith(`${name}{`)) total += Number(value);
  return total;
}

describe('errors inside a running stream', () => {
  let service: StreamsService;
  let sink: Server;
  const received = new Map<number, number>();
  const hungOnce = new Set<number>();

  before(async () => {
    service = await startService({
      registry: new Registry([...testRegistry.list(), thrower as ComponentSpec]),
    });
    // The downstream: records bodies; the first request for every 10th message never gets an answer.
    sink = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { n: number };
        if (body.n % 10 === 3 && !hungOnce.has(body.n)) {
          hungOnce.add(body.n);
          return; // hang
        }
        received.set(body.n, (received.get(body.n) ?? 0) + 1);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    await service.stop();
    sink.closeAllConnections();
    await new Promise((resolve) => sink.close(resolve));
  });

  it('keeps going, delivers every message, and reports the errors in stats and status', async () => {
    const port = (sink.address() as AddressInfo).port;
    const total = 60;
    const config = {
      input: {
        generate: {
          count: total,
          interval: '1ms',
          mapping: 'root = {"n": counter()}',
          auto_replay_nacks: true,
        },
      },
      pipeline: {
        processors: [
          { test_thrower: { every: 5 } },
          { mapping: 'root = this\nroot.checked = if this.n % 7 == 0 { throw("seven") } else { true }' },
          // Flagged messages carry on; strip the flag so the sink gets plain JSON for every n.
          { catch: [{ mapping: 'root = this' }] },
        ],
      },
      output: {
        http_client: {
          url: `http://127.0.0.1:${port}/sink`,
          verb: 'POST',
          timeout: '300ms',
          retries: 0,
          max_in_flight: 4,
        },
      },
    };
    const created = await send(service, 'POST', '/streams/errs', JSON.stringify(config));
    assert.equal(created.status, 200, created.body);
    await waitFor(() => received.size === total, {
      message: `all ${total} messages at the sink`,
      timeoutMs: 20_000,
    });
    for (let n = 1; n <= total; n++) assert.ok(received.has(n), `message ${n} never arrived`);
    assert.ok(hungOnce.size >= 5, 'the hanging output was never exercised');

    const stats = json(await send(service, 'GET', '/streams/errs/stats'));
    // The thrower fails n = 5, 10, … (12 of 60); the mapping fails n = 7, 14, … (8), flagged or not.
    const processorErrors = sumOf(stats, 'processor_error');
    assert.ok(processorErrors >= 12 + 8 && processorErrors < total, `processor_error: ${processorErrors}`);
    assert.ok(sumOf(stats, 'output_error') >= hungOnce.size, `output_error: ${sumOf(stats, 'output_error')}`);

    const detail = json(await send(service, 'GET', '/streams/errs')) as {
      active: boolean;
      status: { last_error: string | null; output_connected: boolean };
    };
    assert.equal(typeof detail.status.last_error, 'string', JSON.stringify(detail));
    assert.match(detail.status.last_error as string, /refused|seven|timed? ?out|timeout|abort/i);
    const ping = await send(service, 'GET', '/ping');
    assert.equal(ping.status, 200);
  });

  it('shows a processor failure as the status last_error even when every message is delivered', async () => {
    const config = {
      input: { generate: { count: 10, interval: '1ms', mapping: 'root = {"n": counter()}' } },
      pipeline: { processors: [{ test_thrower: { every: 3 } }] },
      output: { drop: {} },
    };
    assert.equal((await send(service, 'POST', '/streams/flagged', JSON.stringify(config))).status, 200);
    const detail = await waitFor(
      async () => {
        const d = json(await send(service, 'GET', '/streams/flagged')) as {
          status: { last_error: string | null };
        };
        return d.status.last_error ? d : null;
      },
      { message: 'a last_error' },
    );
    assert.match(detail.status.last_error as string, /processing failed: thrower refused \d+/);
    // n = 3, 6, 9 of the ten messages: exactly three errors once the finite input is done.
    await waitFor(
      async () => {
        const stats = json(await send(service, 'GET', '/streams/flagged/stats'));
        return sumOf(stats, 'processor_error') === 3 && sumOf(stats, 'processor_received') === 10;
      },
      { message: 'three processor errors out of ten' },
    );
  });
});
