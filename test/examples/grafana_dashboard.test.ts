// examples/grafana/nekton.json queries only series nekton exports: every metric name in its PromQL
// is scraped from a running nekton's /metrics (streams mode, so the `stream` label it groups by is there).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const DASHBOARD = join(import.meta.dirname, '..', '..', 'examples', 'grafana', 'nekton.json');

/** PromQL functions, aggregations and keywords: every other bare name is a metric. */
const PROMQL_WORDS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'histogram_quantile',
  'label_values',
  'topk',
  'bottomk',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'delta',
  'deriv',
  'abs',
  'clamp_min',
  'clamp_max',
  'time',
  'vector',
]);

/** The metric names a PromQL expression reads. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, ' ') // label matchers
    .replace(/\[[^\]]*\]/g, ' ') // ranges
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ') // grouping labels
    .replace(/(?<![A-Za-z0-9_:])\d[\d.]*(?:e[+-]?\d+)?/gi, ' '); // numbers (1e6)
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const name = match[0];
    const after = bare.slice(match.index! + name.length).trimStart();
    if (PROMQL_WORDS.has(name) || after.startsWith('(')) continue;
    if (bare[match.index! - 1] === '$') continue; // a Grafana variable
    names.add(name);
  }
  return [...names];
}

/** Every PromQL text of the dashboard: panel targets and query variables. */
function queriesOf(dashboard: {
  panels: Array<{ targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ type: string; query?: unknown }> };
}): string[] {
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  for (const variable of dashboard.templating.list) {
    if (variable.type !== 'query') continue;
    const q = variable.query as string | { query: string };
    queries.push(typeof q === 'string' ? q : q.query);
  }
  return queries;
}

describe('the Grafana dashboard example', () => {
  it('reads metric names out of PromQL', () => {
    assert.deepEqual(
      metricNames(
        'sum by (stream) (rate(output_sent{stream=~"$stream", path="a{b}"}[$__rate_interval])) / 1e6',
      ),
      ['output_sent'],
    );
    assert.deepEqual(metricNames('label_values(input_received, stream)'), ['input_received', 'stream']);
  });

  it('queries only series a running nekton exports', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
    const queries = queriesOf(dashboard);
    assert.ok(queries.length >= 7, `${queries.length} queries`);
    // label_values(metric, label): the label is no metric.
    const wanted = new Set(
      queries.flatMap((q) => metricNames(q.replace(/label_values\(([^,]+),[^)]*\)/, '$1'))),
    );
    for (const name of ['input_received', 'output_sent', 'processor_error', 'output_latency_ns'])
      assert.ok(wanted.has(name), `the dashboard should chart ${name}`);

    const dir = tempDir('nekton-grafana-');
    const port = await freePort();
    const observability = join(dir, 'observability.yaml');
    writeFileSync(observability, `http: {address: "127.0.0.1:${port}"}\nlogger: {level: WARN}\n`);
    const streams = join(dir, 'streams');
    mkdirSync(streams);
    writeFileSync(
      join(streams, 'orders.yaml'),
      [
        'input:',
        '  generate: {mapping: "root = {\\"n\\": count(\\"g\\")}", interval: 20ms}',
        'pipeline:',
        '  processors: [ {mapping: "root = this"} ]',
        'output:',
        '  drop: {}',
      ].join('\n'),
    );
    const nekton = startNekton(['streams', '-o', observability, streams]);
    try {
      const scrape = () =>
        fetch(`http://127.0.0.1:${port}/metrics`)
          .then((r) => r.text())
          .catch(() => '');
      const text = await waitFor(
        async () => {
          const body = await scrape();
          return /^output_sent\{[^}]*stream="orders"[^}]*\} [1-9]/m.test(body) ? body : '';
        },
        { message: () => `output_sent of stream orders at /metrics\n${nekton.output()}`, timeoutMs: 20_000 },
      );
      const exported = new Set<string>();
      for (const line of text.split('\n')) {
        const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{|\s)/.exec(line);
        if (m) exported.add(m[1]!);
      }
      const missing = [...wanted].filter((name) => !exported.has(name));
      assert.deepEqual(missing, [], `exported: ${[...exported].sort().join(', ')}`);
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
