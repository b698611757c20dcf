// W2t: W2 (a file of JSON lines -> the doc mapping -> `drop`) with `pipeline.threads: 2` against the
// same stream with `threads: 1` (same run). Target on 2 cores: at least 1.6 times as fast. The
// hand-written W2 loop is shown for scale, and so is what this machine gives two processes at once
// (two `threads: 1` runs side by side, each over the whole file): the ceiling of any 2-way split here,
// since two busy cores share caches, memory bandwidth and the host's scheduler. Each config also runs
// over the file three times (its input lists it thrice): the second and third passes' rate is the
// pipeline's after start-up (a pipeline thread starts, and its code warms up, while the main thread
// already works), so the report splits the ratio into what start-up costs and what is left.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDocuments } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { timeCommand, timeNekton } from '../processes.js';
import { batchedMappingConfig } from './w7_batching.js';

export function w2tThreads(workDir: string, docs = 1_000_000): Workload {
  const dataFile = join(workDir, 'w2t-docs.jsonl');
  const figures = (seconds: number, passes = 1): Metrics => ({ rate: (passes * docs) / seconds, seconds });
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const title = 'W2t mapping, threads 2';
  const one = join(workDir, 'w2t-1.yaml');
  const two = join(workDir, 'w2t-2.yaml');
  const oneThrice = join(workDir, 'w2t-1-thrice.yaml');
  const twoThrice = join(workDir, 'w2t-2-thrice.yaml');
  return {
    id: 'W2T',
    title,
    describes: `${num(docs)} JSON docs, W2 with pipeline.threads 2 (worker threads) against threads 1, each also over the file three times (the second and third passes' rate: after start-up); msgs/s`,
    async setup() {
      await writeDocuments(dataFile, docs);
      writeFileSync(one, batchedMappingConfig(dataFile, 0, 1));
      writeFileSync(two, batchedMappingConfig(dataFile, 0, 2));
      writeFileSync(oneThrice, batchedMappingConfig([dataFile, dataFile, dataFile], 0, 1));
      writeFileSync(twoThrice, batchedMappingConfig([dataFile, dataFile, dataFile], 0, 2));
    },
    contenders: [
      { name: 'nekton threads 2', run: async () => figures(await timeNekton(['-c', two])) },
      { name: 'nekton threads 1', run: async () => figures(await timeNekton(['-c', one])) },
      {
        name: 'nekton threads 2, 3 passes',
        run: async () => figures(await timeNekton(['-c', twoThrice]), 3),
      },
      {
        name: 'nekton threads 1, 3 passes',
        run: async () => figures(await timeNekton(['-c', oneThrice]), 3),
      },
      {
        name: 'two nekton processes at once',
        run: async () => {
          const started = process.hrtime.bigint();
          await Promise.all([timeNekton(['-c', one]), timeNekton(['-c', one])]);
          return { rate: (2 * docs) / (Number(process.hrtime.bigint() - started) / 1e9) };
        },
      },
      {
        name: 'hand-written JS',
        run: async () =>
          figures(await timeCommand(process.execPath, ['bench/baselines/json_map.mjs', dataFile])),
      },
    ],
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton threads 2', 'nekton threads 1', 'rate', format, 1.6),
      ratioRow(
        'W2t after start-up (passes 2-3 of 3), threads 2',
        afterStartUp(m, docs),
        'nekton threads 2',
        'nekton threads 1',
        'rate',
        format,
      ),
      ratioRow(title, m, 'nekton threads 2', 'hand-written JS', 'rate', format),
      ratioRow(
        'W2t two threads-1 processes at once (ceiling)',
        m,
        'two nekton processes at once',
        'nekton threads 1',
        'rate',
        format,
      ),
    ],
  };
}

/**
 * The rate of the second and third passes over the file: (3 passes - 1 pass) of work over the
 * difference of their medians' seconds. Start-up and warm-up happen in both runs and cancel out.
 */
function afterStartUp(m: Measured, docs: number): Measured {
  const medians = new Map<string, Metrics>();
  for (const name of ['nekton threads 2', 'nekton threads 1']) {
    const once = m.medians.get(name)?.seconds;
    const thrice = m.medians.get(`${name}, 3 passes`)?.seconds;
    if (once !== undefined && thrice !== undefined && thrice > once)
      medians.set(name, { rate: (2 * docs) / (thrice - once) });
  }
  return { medians, samples: new Map(), unavailable: m.unavailable };
}
