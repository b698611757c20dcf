// `metrics: influxdb` (InfluxDB 1.x): every interval, one point per series written over HTTP in
// the line protocol. Fields as the reference's reporter writes them: counters `count`, gauges
// `value`, timers count/min/max/mean and percentiles (nanoseconds).
import type { Logger } from 'pino';
import { parseDurationMs } from '../../config/duration.js';
import { errorMessage } from '../../engine/errors.js';
import type { MetricFamily } from '../family.js';
import type { Series } from '../series.js';
import { type PushSchedule, schedulePush } from './schedule.js';

export interface InfluxdbSettings {
  url: string;
  db: string;
  username: string;
  password: string;
  interval: string;
  ping_interval: string;
  precision: string;
  timeout: string;
  tags: Record<string, string>;
  retention_policy?: string;
  write_consistency?: string;
}

/** Nanoseconds per unit of each precision InfluxDB 1.x accepts. */
const PRECISION_NS: Record<string, bigint> = {
  ns: 1n,
  n: 1n,
  u: 1_000n,
  us: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

export function influxdbExporter(
  settings: InfluxdbSettings,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): PushSchedule {
  const base = settings.url.replace(/\/+$/, '');
  const precision = settings.precision === 'n' ? 'ns' : settings.precision;
  const unitNs = PRECISION_NS[precision];
  if (unitNs === undefined)
    throw new Error(`influxdb: precision ${settings.precision} is not one of ns, u, ms, s, m, h`);
  const query = new URLSearchParams({ db: settings.db, precision });
  if (settings.retention_policy) query.set('rp', settings.retention_policy);
  if (settings.write_consistency) query.set('consistency', settings.write_consistency);
  const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8' };
  if (settings.username)
    headers.Authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password}`).toString('base64')}`;
  const timeoutMs = parseDurationMs(settings.timeout);

  const push = async () => {
    const time = (process.hrtime.bigint() - startHr + startNs) / unitNs;
    const lines: string[] = [];
    for (const family of families())
      for (const series of family.series.values())
        lines.push(influxLine(family.name, { ...series.labels, ...settings.tags }, fieldsOf(series), time));
    if (lines.length === 0) return;
    const res = await fetch(`${base}/write?${query}`, {
      method: 'POST',
      headers,
      body: lines.join('\n'),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status !== 204) throw new Error(`write answered ${res.status}: ${(await res.text()).trim()}`);
  };
  const schedule = schedulePush('influxdb', parseDurationMs(settings.interval), push, logger);
  const pingMs = parseDurationMs(settings.ping_interval);
  const ping =
    pingMs > 0
      ? setInterval(() => {
          fetch(`${base}/ping`, { headers, signal: AbortSignal.timeout(timeoutMs) }).then(
            (res) => res.status !== 204 && logger?.warn(`influxdb: ping answered ${res.status}`),
            (err) => logger?.warn(`influxdb: ping failed: ${errorMessage(err)}`),
          );
        }, pingMs).unref()
      : undefined;
  return {
    close() {
      if (ping) clearInterval(ping);
      return schedule.close();
    },
  };
}

// Wall-clock nanoseconds advanced by the monotonic clock (Date has only milliseconds).
const startNs = BigInt(Date.now()) * 1_000_000n;
const startHr = process.hrtime.bigint();

function fieldsOf(series: Series): Record<string, number | bigint> {
  if (series.kind === 'counter') return { count: BigInt(Math.trunc(series.value)) };
  if (series.kind === 'gauge') return { value: BigInt(Math.trunc(series.value)) };
  const h = series.histogram;
  const empty = h.count === 0;
  return {
    count: BigInt(h.count),
    min: BigInt(empty ? 0 : Math.trunc(h.min)),
    max: BigInt(empty ? 0 : Math.trunc(h.max)),
    mean: empty ? 0 : h.sum / h.count,
    p50: h.quantile(0.5),
    p75: h.quantile(0.75),
    p95: h.quantile(0.95),
    p99: h.quantile(0.99),
    p999: h.quantile(0.999),
  };
}

/** `measurement,tag=v field=1i,other=2.5 <time>` with the line protocol's escapes. */
export function influxLine(
  measurement: string,
  tags: Record<string, string>,
  fields: Record<string, number | bigint>,
  time: bigint,
): string {
  const tagText = Object.keys(tags)
    .sort()
    .filter((k) => tags[k] !== '') // the line protocol has no empty tag values
    .map((k) => `,${escapeKey(k)}=${escapeKey(tags[k])}`)
    .join('');
  const fieldText = Object.entries(fields)
    .map(([k, v]) => `${escapeKey(k)}=${typeof v === 'bigint' ? `${v}i` : Number.isFinite(v) ? v : 0}`)
    .join(',');
  return `${measurement.replace(/[, ]/g, '\\$&')}${tagText} ${fieldText} ${time}`;
}

function escapeKey(text: string): string {
  return text.replace(/[,= ]/g, '\\$&');
}
