// W2: 500k JSON documents (a file of JSON lines) -> 10-assignment `mapping` -> `drop`, against
// hand-written JavaScript doing the same parse and assignments. Target: at least 0.5.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mappingYaml, writeDocuments } from '../documents.js';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { timeCommand, timeNekton } from '../processes.js';

/** A config reading `dataFile` through the doc mapping into `output` (YAML lines under `output:`). */
export function mappingConfig(dataFile: string, output: string): string {
  return `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n  file:\n    paths: [ ${JSON.stringify(dataFile)} ]\npipeline:\n  processors:\n${mappingYaml(4)}output:\n${output}`;
}

export function w2Mapping(workDir: string, docs = 500_000): Workload {
  const dataFile = join(workDir, 'w2-docs.jsonl');
  const configFile = join(workDir, 'w2.yaml');
  const figures = (seconds: number): Metrics => ({ rate: docs / seconds });
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const title = 'W2 mapping';
  return {
    id: 'W2',
    title,
    describes: `${num(docs)} JSON docs (file of JSON lines) -> 10-assignment mapping -> drop; msgs/s against hand-written JS doing the same parse and assignments`,
    async setup() {
      await writeDocuments(dataFile, docs);
      writeFileSync(configFile, mappingConfig(dataFile, '  drop: {}\n'));
    },
    contenders: [
      { name: 'nekton', run: async () => figures(await timeNekton(['-c', configFile])) },
      {
        name: 'hand-written JS',
        run: async () =>
          figures(await timeCommand(process.execPath, ['bench/baselines/json_map.mjs', dataFile])),
      },
    ],
    report: (m: Measured) => [ratioRow(title, m, 'nekton', 'hand-written JS', 'rate', format, 0.5)],
  };
}
