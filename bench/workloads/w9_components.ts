// Rows for components at their library's limit. W9: the `http` processor POSTing each document to
// a local server, against a hand-written fetch loop with the same concurrency (target 0.7). W10/W11:
// `protobuf` / `avro` from_json then to_json on each document, against protobufjs / avsc called in
// a loop doing the same encode and decode (target 0.7).
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeDocuments } from '../documents.js';
import { cpuRow, type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { isRegistered, ROOT, timeCommand, timeNekton, timeNektonCpu, timeNodeCpu } from '../processes.js';

const header = 'http:\n  enabled: false\nlogger:\n  level: WARN\n';
const fileInput = (file: string) => `input:\n  file:\n    paths: [ ${JSON.stringify(file)} ]\n`;
/** nekton's default pipeline runs two requests at a time (two async loops); the loop does the same. */
const CONCURRENCY = 2;

export function w9Http(workDir: string, docs = 5_000): Workload {
  const dataFile = join(workDir, 'w9-docs.jsonl');
  const configFile = join(workDir, 'w9.yaml');
  const title = 'W9 http processor';
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const figures = (seconds: number): Metrics => ({ rate: docs / seconds });
  let server: Server | null = null;
  let url = '';
  return {
    id: 'W9',
    title,
    describes: `${num(docs)} JSON docs, each POSTed by the http processor to a local node:http server that echoes it; msgs/s against a fetch loop with ${CONCURRENCY} requests at a time`,
    async skipReason() {
      return (await isRegistered('processors', 'http')) ? undefined : 'the http processor is not available';
    },
    async setup() {
      await writeDocuments(dataFile, docs);
      server = createServer((req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (c: Buffer) => parts.push(c));
        req.on('end', () => {
          res.setHeader('content-type', 'application/json');
          res.end(Buffer.concat(parts));
        });
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`;
      writeFileSync(
        configFile,
        `${header}${fileInput(dataFile)}pipeline:\n  processors:\n    - http:\n        url: ${url}\n        verb: POST\noutput:\n  drop: {}\n`,
      );
    },
    async teardown() {
      server?.closeAllConnections();
      server?.close();
    },
    contenders: [
      { name: 'nekton', run: async () => figures(await timeNekton(['-c', configFile])) },
      {
        name: 'fetch loop',
        run: async () =>
          figures(
            await timeCommand(process.execPath, [
              'bench/baselines/http_client_loop.mjs',
              url,
              dataFile,
              String(CONCURRENCY),
            ]),
          ),
      },
    ],
    report: (m: Measured) => [ratioRow(title, m, 'nekton', 'fetch loop', 'rate', format, 0.7)],
  };
}

function codecWorkload(workDir: string, id: string, kind: 'protobuf' | 'avro', docs: number): Workload {
  const dataFile = join(workDir, `${id.toLowerCase()}-docs.jsonl`);
  const configFile = join(workDir, `${id.toLowerCase()}.yaml`);
  const schema = join(ROOT, 'bench', 'fixtures', kind === 'protobuf' ? 'doc.proto' : 'doc.avsc');
  const library = kind === 'protobuf' ? 'protobufjs' : 'avsc';
  const title = `${id} ${kind} processor`;
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s, ${m.cpu!.toFixed(2)} s CPU`;
  const figures = ({ seconds, cpu }: { seconds: number; cpu: number }): Metrics => ({
    rate: docs / seconds,
    cpu,
  });
  const step = (operator: string) =>
    kind === 'protobuf'
      ? `    - protobuf:\n        operator: ${operator}\n        message: bench.Doc\n        import_paths: [ ${JSON.stringify(join(ROOT, 'bench', 'fixtures'))} ]\n`
      : `    - avro:\n        operator: ${operator}\n        encoding: binary\n        schema_path: ${JSON.stringify(`file://${schema}`)}\n`;
  return {
    id,
    title,
    describes: `${num(docs)} JSON docs, ${kind} from_json then to_json on each -> drop; msgs/s against ${library} called in a loop (parse, encode, decode, stringify)`,
    async skipReason() {
      return (await isRegistered('processors', kind)) ? undefined : `the ${kind} processor is not available`;
    },
    async setup() {
      await writeDocuments(dataFile, docs);
      writeFileSync(
        configFile,
        `${header}${fileInput(dataFile)}pipeline:\n  processors:\n${step('from_json')}${step('to_json')}output:\n  drop: {}\n`,
      );
    },
    contenders: [
      { name: 'nekton', run: async () => figures(await timeNektonCpu(['-c', configFile])) },
      {
        name: `${library} loop`,
        run: async () =>
          figures(await timeNodeCpu(['bench/baselines/codec_loop.mjs', kind, schema, dataFile])),
      },
    ],
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton', `${library} loop`, 'rate', format, 0.7),
      cpuRow(`${title}, CPU time`, m, 'nekton', `${library} loop`),
    ],
  };
}

export const w10Protobuf = (workDir: string, docs = 100_000) =>
  codecWorkload(workDir, 'W10', 'protobuf', docs);
export const w11Avro = (workDir: string, docs = 100_000) => codecWorkload(workDir, 'W11', 'avro', docs);
