// `metrics: statsd`: every flush_period, the change in each series over UDP in the StatsD text
// protocol. Counters as increments (`|c`), gauges when changed (`|g`), timers as their mean in
// nanoseconds (`|ms`, as the reference sends them) with a sample rate of 1/count, so the daemon
// counts every observation without nekton sending each one.
import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from 'pino';
import { parseDurationMs } from '../../config/duration.js';
import type { MetricFamily } from '../family.js';
import { DeltaTracker } from './deltas.js';
import { type PushSchedule, schedulePush } from './schedule.js';

export interface StatsdSettings {
  address: string;
  flush_period: string;
  tag_format: string;
  tags: Record<string, string>;
}

/** Below the common 1500-byte MTU after IP and UDP headers, as statsd clients keep datagrams. */
const MAX_DATAGRAM = 1432;

export function statsdExporter(
  settings: StatsdSettings,
  families: () => Iterable<MetricFamily>,
  logger: Logger | undefined,
): PushSchedule {
  const { host, port } = splitAddress(settings.address);
  const socket: Socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  socket.unref();
  socket.on('error', (err) => logger?.warn(`statsd: ${err.message}`));
  const deltas = new DeltaTracker();
  const send = (datagram: string) =>
    new Promise<void>((resolve) => socket.send(datagram, port, host, () => resolve()));

  const push = async () => {
    let datagram = '';
    for (const family of families()) {
      for (const series of family.series.values()) {
        const delta = deltas.take(series);
        if (!delta) continue;
        const tags = { ...settings.tags, ...series.labels };
        const line =
          series.kind === 'counter'
            ? statsdLine(family.name, `${delta.value}|c`, tags, settings.tag_format)
            : series.kind === 'gauge'
              ? statsdLine(family.name, `${delta.value}|g`, tags, settings.tag_format)
              : statsdLine(
                  family.name,
                  `${Math.round(delta.value)}|ms${delta.count > 1 ? `|@${1 / delta.count}` : ''}`,
                  tags,
                  settings.tag_format,
                );
        if (datagram.length > 0 && datagram.length + 1 + line.length > MAX_DATAGRAM) {
          await send(datagram);
          datagram = '';
        }
        datagram = datagram.length > 0 ? `${datagram}\n${line}` : line;
      }
    }
    if (datagram.length > 0) await send(datagram);
  };
  const schedule = schedulePush('statsd', parseDurationMs(settings.flush_period), push, logger);
  return {
    async close() {
      await schedule.close();
      socket.close();
    },
  };
}

/** One metric line; `body` is `value|type[|@rate]`. Tags as the tag format writes them. */
export function statsdLine(name: string, body: string, tags: Record<string, string>, format: string): string {
  const pairs = Object.entries(tags);
  if (format === 'datadog' && pairs.length > 0)
    return `${name}:${body}|#${pairs.map(([k, v]) => `${k}:${v}`).join(',')}`;
  if (format === 'influxdb' && pairs.length > 0)
    return `${name},${pairs.map(([k, v]) => `${k}=${v}`).join(',')}:${body}`;
  return `${name}:${body}`;
}

function splitAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '') || '127.0.0.1';
  return { host, port: Number(address.slice(colon + 1)) };
}
