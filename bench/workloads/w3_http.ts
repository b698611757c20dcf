// W3: HTTP ingest. `http_server` -> 10-assignment `mapping` -> `drop` under autocannon (50
// connections), against a bare node:http server doing the same JSON work and Node-RED 4.1
// (`http in -> function -> http response`). Targets: >= 0.8 of node:http, >= 5x Node-RED.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { makeDocument, mappingYaml } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { ensureNodeRed, startNodeRed } from '../node_red.js';
import { type Background, freePort, startBackground, startNekton, waitForHttp } from '../processes.js';

const CONNECTIONS = 50;
const WARM_UP_S = 3;

export function w3Http(workDir: string, seconds = 5): Workload {
  const configFile = join(workDir, 'w3.yaml');
  const body = makeDocument(12345);
  const title = 'W3 HTTP ingest';
  const format = (m: Metrics) => `${num(m.rate!)} req/s, p99 ${m.p99!.toFixed(0)} ms`;

  /**
   * Starts a server, warms it up for WARM_UP_S, then loads it for `seconds`. The warm-up is 3 s: on a
   * 2-vCPU machine V8 was still optimising nekton's request path 4-5 s in (node:http's after 2-3 s),
   * and a server is measured at its steady state (docs/guides/performance.md, W3).
   */
  async function load(start: (port: number) => Background | Promise<Background>): Promise<Metrics> {
    const port = await freePort();
    const server = await start(port);
    const url = `http://127.0.0.1:${port}/post`;
    try {
      await waitForHttp(url, server, 60_000, body);
      const options = {
        url,
        connections: CONNECTIONS,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      };
      await autocannon({ ...options, duration: WARM_UP_S });
      const r = await autocannon({ ...options, duration: seconds });
      const failed = r.non2xx + r.errors + r.timeouts;
      if (failed > r.requests.total / 100)
        throw new Error(`${failed} of ${r.requests.total} requests failed`);
      return { rate: r.requests.total / seconds, p99: r.latency.p99, failed };
    } finally {
      await server.stop();
    }
  }

  return {
    id: 'W3',
    title,
    describes: `http_server -> mapping -> drop, ${CONNECTIONS} connections (autocannon, ${seconds} s after ${WARM_UP_S} s warm-up); req/s and p99 against a bare node:http server doing the same JSON work and Node-RED 4.1 (http in -> function -> http response)`,
    async setup() {
      writeFileSync(
        configFile,
        `http:\n  address: \${NEKTON_BENCH_ADDRESS}\nlogger:\n  level: WARN\ninput:\n  http_server:\n    path: /post\npipeline:\n  processors:\n${mappingYaml(4)}output:\n  drop: {}\n`,
      );
    },
    contenders: [
      {
        name: 'nekton',
        run: () =>
          load((port) => {
            process.env.NEKTON_BENCH_ADDRESS = `127.0.0.1:${port}`;
            return startNekton(['-c', configFile]);
          }),
      },
      {
        name: 'node:http',
        run: () =>
          load((port) => startBackground(process.execPath, ['bench/baselines/http_json.mjs', String(port)])),
      },
      {
        name: 'Node-RED 4.1',
        run: () =>
          load(async (port) => {
            await ensureNodeRed();
            return startNodeRed(workDir, port, '/post');
          }),
      },
    ],
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton', 'node:http', 'rate', format, 0.8),
      ratioRow(title, m, 'nekton', 'Node-RED 4.1', 'rate', format, 5),
    ],
  };
}
