// W7: W2 (a file of JSON lines -> the doc mapping -> `drop`) with the input batched by a `broker`
// of one input, `batching.count` 1, 100 and 1,000, each against the hand-written W2 loop and
// against the same stream unbatched (same run). Target: batched at least as fast as unbatched.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mappingYaml, writeDocuments } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { timeCommand, timeNekton } from '../processes.js';

const COUNTS = [1, 100, 1000] as const;

/** W2's config with its file input inside a batching `broker` (count 0: not batched). */
export function batchedMappingConfig(dataFile: string | string[], count: number, threads?: number): string {
  const files = (Array.isArray(dataFile) ? dataFile : [dataFile]).map((f) => JSON.stringify(f));
  const file = `file:\n    paths: [ ${files.join(', ')} ]\n`;
  const input =
    count > 0
      ? `  broker:\n    inputs:\n      - ${file.replace('\n    paths', '\n          paths')}    batching:\n      count: ${count}\n`
      : `  ${file}`;
  const pipeline = `pipeline:\n${threads === undefined ? '' : `  threads: ${threads}\n`}  processors:\n${mappingYaml(4)}`;
  return `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n${input}${pipeline}output:\n  drop: {}\n`;
}

export function w7Batching(workDir: string, docs = 300_000): Workload {
  const dataFile = join(workDir, 'w7-docs.jsonl');
  const figures = (seconds: number): Metrics => ({ rate: docs / seconds });
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const title = 'W7 input batching';
  const configs = new Map<number, string>([0, ...COUNTS].map((n) => [n, join(workDir, `w7-${n}.yaml`)]));
  const nektonName = (n: number) => (n === 0 ? 'nekton unbatched' : `nekton batching ${n}`);
  return {
    id: 'W7',
    title,
    describes: `${num(docs)} JSON docs, W2 with its input in a broker with batching.count ${COUNTS.join('/')}; msgs/s against the hand-written W2 loop and against the same stream unbatched`,
    async setup() {
      await writeDocuments(dataFile, docs);
      for (const [n, file] of configs) writeFileSync(file, batchedMappingConfig(dataFile, n));
    },
    contenders: [
      ...[...configs].map(([n, file]) => ({
        name: nektonName(n),
        run: async () => figures(await timeNekton(['-c', file])),
      })),
      {
        name: 'hand-written JS',
        run: async () =>
          figures(await timeCommand(process.execPath, ['bench/baselines/json_map.mjs', dataFile])),
      },
    ],
    report: (m: Measured) =>
      COUNTS.flatMap((n) => [
        ratioRow(`${title} ${n}`, m, nektonName(n), 'hand-written JS', 'rate', format),
        ratioRow(`${title} ${n}`, m, nektonName(n), nektonName(0), 'rate', format, n === 1 ? 0.95 : 1),
      ]),
  };
}
