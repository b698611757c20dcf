import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createMetricsRegistry } from '../../src/metrics/index.js';

/** A UDP listener that parses the StatsD text protocol (name[,tags]:value|type[|@rate][|#tags]). */
class StatsdListener {
  readonly lines: string[] = [];
  private readonly socket = createSocket('udp4');
  async start(): Promise<number> {
    this.socket.on('message', (datagram) => this.lines.push(...datagram.toString('utf8').split('\n')));
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return (this.socket.address() as AddressInfo).port;
  }
  parsed() {
    return this.lines.map((line) => {
      const match = /^([^:]+):([^|]+)\|(c|g|ms)(?:\|@([\d.e-]+))?(?:\|#(.*))?$/.exec(line);
      assert.ok(match, `not a statsd line: ${line}`);
      return { name: match[1], value: Number(match[2]), type: match[3], rate: match[4], tags: match[5] };
    });
  }
  close() {
    this.socket.close();
  }
}

describe('statsd metrics', () => {
  const listener = new StatsdListener();
  let port = 0;
  before(async () => {
    port = await listener.start();
  });
  after(() => listener.close());

  it('sends counter increments, gauges and timers with datadog tags, and a last push at close', async () => {
    listener.lines.length = 0;
    const registry = createMetricsRegistry({
      type: 'statsd',
      settings: {
        address: `127.0.0.1:${port}`,
        flush_period: '50ms',
        tag_format: 'datadog',
        tags: { app: 'n' },
      },
    });
    const scope = registry.scope({ label: 'in', path: 'root.input' });
    scope.counter('input_received').inc(3);
    scope.gauge('buffer_size').set(7);
    const latency = scope.timer('input_latency_ns');
    latency.observeNs(1000);
    latency.observeNs(3000);
    await new Promise((r) => setTimeout(r, 200));
    scope.counter('input_received').inc(2);
    await registry.close();
    await new Promise((r) => setTimeout(r, 50));
    const points = listener.parsed();
    const counters = points.filter((p) => p.name === 'input_received');
    assert.deepEqual(
      counters.map((p) => p.value),
      [3, 2],
      'increments, not totals',
    );
    assert.equal(counters[0].type, 'c');
    assert.equal(counters[0].tags, 'app:n,label:in,path:root.input');
    assert.deepEqual(
      points.filter((p) => p.name === 'buffer_size').map((p) => [p.value, p.type]),
      [[7, 'g']],
    );
    const timer = points.filter((p) => p.name === 'input_latency_ns');
    assert.equal(timer.length, 1);
    assert.equal(timer[0].value, 2000); // mean of the two, in ns
    assert.equal(timer[0].rate, '0.5'); // standing for 2 observations
  });

  it('writes influxdb-style tags in the name, and no tags with tag_format none', async () => {
    listener.lines.length = 0;
    const influx = createMetricsRegistry({
      type: 'statsd',
      settings: { address: `127.0.0.1:${port}`, flush_period: '1h', tag_format: 'influxdb', tags: {} },
    });
    influx.scope({ label: '', path: 'root.output' }).counter('output_sent').inc();
    await influx.close();
    const plain = createMetricsRegistry({
      type: 'statsd',
      settings: { address: `127.0.0.1:${port}`, flush_period: '1h', tag_format: 'none', tags: {} },
    });
    plain.scope({ label: '', path: 'root.output' }).counter('output_error').inc(4);
    await plain.close();
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(listener.lines.includes('output_sent,label=,path=root.output:1|c'), listener.lines.join('\n'));
    assert.ok(listener.lines.includes('output_error:4|c'), listener.lines.join('\n'));
  });
});
