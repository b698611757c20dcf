// W13: the `sqlite` buffer. W2's stream (file -> the doc mapping -> drop) with `buffer: sqlite`
// against the same stream without a buffer: what storing each message in SQLite (one commit per
// input batch) costs. Unbatched, every line is its own commit; with the file input inside a
// batching broker (count 100) and a `split` after the buffer, one commit carries 100 lines.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mappingYaml, writeDocuments } from '../documents.js';
import { cpuRow, type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { isRegistered, timeNektonCpu } from '../processes.js';

const BATCH = 100;

export function w13SqliteBuffer(workDir: string, docs = 10_000): Workload {
  const dataFile = join(workDir, 'w13-docs.jsonl');
  const dbFile = join(workDir, 'w13-buffer.db');
  const title = 'W13 sqlite buffer';
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s, ${m.cpu!.toFixed(2)} s CPU`;
  const file = `  file:\n    paths: [ ${JSON.stringify(dataFile)} ]\n`;
  const batchedFile = `  broker:\n    inputs:\n      - file:\n          paths: [ ${JSON.stringify(dataFile)} ]\n    batching:\n      count: ${BATCH}\n`;
  const sqlite = (split: boolean) =>
    `buffer:\n  sqlite:\n    path: ${JSON.stringify(dbFile)}\n${split ? '    post_processors:\n      - split: {}\n' : ''}`;
  const config = (name: string, input: string, buffer: string) => {
    const path = join(workDir, `w13-${name}.yaml`);
    writeFileSync(
      path,
      `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n${input}${buffer}pipeline:\n  processors:\n${mappingYaml(4)}output:\n  drop: {}\n`,
    );
    return path;
  };
  /** A fresh database file for each run, as a first start would have. */
  const run = async (configFile: string) => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbFile}${suffix}`, { force: true });
    const { seconds, cpu } = await timeNektonCpu(['-c', configFile]);
    return { rate: docs / seconds, cpu };
  };
  let none = '';
  let buffered = '';
  let batched = '';
  return {
    id: 'W13',
    title,
    describes: `${num(docs)} JSON docs: W2's stream (file -> mapping -> drop) with \`buffer: sqlite\` (a fresh database file each run) against the same stream with no buffer; and with the file input batched by ${BATCH} (a broker) and a split after the buffer`,
    async skipReason() {
      return (await isRegistered('inputs', 'file')) ? undefined : 'the file input is not available';
    },
    async setup() {
      await writeDocuments(dataFile, docs);
      none = config('none', file, '');
      buffered = config('sqlite', file, sqlite(false));
      batched = config('sqlite-batched', batchedFile, sqlite(true));
    },
    contenders: [
      { name: 'no buffer', run: () => run(none) },
      { name: 'sqlite', run: () => run(buffered) },
      { name: `sqlite, batches of ${BATCH}`, run: () => run(batched) },
    ],
    report: (m: Measured) => [
      ratioRow(`${title}, unbatched`, m, 'sqlite', 'no buffer', 'rate', format),
      ratioRow(
        `${title}, batches of ${BATCH}`,
        m,
        `sqlite, batches of ${BATCH}`,
        'no buffer',
        'rate',
        format,
      ),
      cpuRow(`${title}, unbatched, CPU time`, m, 'sqlite', 'no buffer'),
    ],
  };
}
