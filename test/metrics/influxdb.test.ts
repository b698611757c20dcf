// Against Debian's InfluxDB 1.x (`influxd`), started here on free ports with its own directory.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMetricsRegistry } from '../../src/metrics/index.js';
import { tempDir } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';

async function startInfluxd(): Promise<{ url: string; process: ChildProcess; dir: string }> {
  const dir = tempDir('nekton-influx-');
  const [httpPort, rpcPort] = [await freePort(), await freePort()];
  const config = join(dir, 'influxdb.conf');
  writeFileSync(
    config,
    [
      'reporting-disabled = true',
      `bind-address = "127.0.0.1:${rpcPort}"`,
      `[meta]\n  dir = "${dir}/meta"`,
      `[data]\n  dir = "${dir}/data"\n  wal-dir = "${dir}/wal"\n  query-log-enabled = false`,
      '[monitor]\n  store-enabled = false',
      `[http]\n  bind-address = "127.0.0.1:${httpPort}"\n  log-enabled = false`,
    ].join('\n'),
  );
  const child = spawn('influxd', ['-config', config], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${httpPort}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/ping`).then(
      (r) => r.status === 204,
      () => false,
    );
    if (up) return { url, process: child, dir };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('influxd did not start');
}

interface InfluxReply {
  results: { series: { columns: string[]; values: unknown[][] }[] }[];
}

async function influxQuery(url: string, q: string, db?: string): Promise<InfluxReply> {
  const params = new URLSearchParams({ q });
  if (db) params.set('db', db);
  const res = await fetch(`${url}/query?${params}`, { method: 'POST' });
  assert.equal(res.status, 200);
  return (await res.json()) as InfluxReply;
}

describe('influxdb metrics', () => {
  let influx: Awaited<ReturnType<typeof startInfluxd>>;
  before(async () => {
    influx = await startInfluxd();
    await influxQuery(influx.url, 'CREATE DATABASE nekton');
  });
  after(() => {
    influx.process.kill();
    rmSync(influx.dir, { recursive: true, force: true });
  });

  it('writes counters, gauges and timers as points that read back with their tags', async () => {
    const registry = createMetricsRegistry({
      type: 'influxdb',
      settings: {
        url: influx.url,
        db: 'nekton',
        username: '',
        password: '',
        interval: '1h', // only the push at close
        ping_interval: '20s',
        precision: 's',
        timeout: '5s',
        tags: { host: 'h1' },
      },
      mapping: 'meta label = deleted()',
    });
    const scope = registry.scope({ label: 'in', path: 'root.input' });
    scope.counter('input_received').inc(5);
    scope.gauge('buffer_size').set(9);
    scope.timer('input_latency_ns').observeNs(4000);
    await registry.close();

    const read = await influxQuery(influx.url, 'SELECT * FROM input_received', 'nekton');
    const series = read.results[0].series[0];
    const row = Object.fromEntries(series.columns.map((c: string, i: number) => [c, series.values[0][i]]));
    assert.equal(row.count, 5);
    assert.equal(row.host, 'h1');
    assert.equal(row.path, 'root.input');
    assert.equal(row.label, undefined); // the mapping applies to this exporter too

    const gauge = await influxQuery(influx.url, 'SELECT "value" FROM buffer_size', 'nekton');
    assert.equal(gauge.results[0].series[0].values[0][1], 9);
    const timer = await influxQuery(influx.url, 'SELECT "count", "max" FROM input_latency_ns', 'nekton');
    assert.deepEqual(timer.results[0].series[0].values[0].slice(1), [1, 4000]);
  });

  it('logs a failed write instead of failing the run', async () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m), error() {}, info() {} } as never;
    const registry = createMetricsRegistry({
      type: 'influxdb',
      logger,
      settings: {
        url: influx.url,
        db: 'no_such_db',
        username: '',
        password: '',
        interval: '1h',
        ping_interval: '0s',
        precision: 'ms',
        timeout: '5s',
        tags: {},
      },
    });
    registry.scope({ label: '', path: 'root.output' }).counter('output_sent').inc();
    await registry.close();
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /influxdb: write answered 404: .*database not found/);
  });
});
