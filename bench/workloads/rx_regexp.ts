// RX: 200k log lines -> a mapping that leans on regular expressions (re_match, re_find_object with
// named groups, re_find_all, re_replace_all) -> drop, against hand-written JavaScript doing the
// same with V8's RegExp. User patterns run on a linear-time engine (src/regexp), so this row shows
// what that safety costs on ordinary patterns. No target: it is a measurement.
import { once } from 'node:events';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { timeCommand, timeNekton } from '../processes.js';

const LEVELS = ['INFO', 'WARN', 'ERROR', 'DEBUG'];
const USERS = ['alice', 'bob', 'carol', 'dave'];

export function logLine(i: number): string {
  const status = i % 10 === 0 ? 503 : 200;
  return `2026-11-26T12:${String(i % 60).padStart(2, '0')}:00Z ${LEVELS[i % 4]} user=${USERS[i % 4]} id=${i} action=login ip=10.0.${i % 256}.${i % 7} took=${i % 900}ms status=${status} path=/api/v1/items/${i % 1000}`;
}

/** Kept in step with bench/baselines/regexp_map.mjs. */
export const REGEXP_MAPPING = `let line = content().string()
root.error = $line.re_match("status=5\\\\d\\\\d")
root.fields = $line.re_find_object("^(?P<ts>\\\\S+) (?P<level>[A-Z]+) user=(?P<user>\\\\w+)")
root.numbers = $line.re_find_all("\\\\d+").length()
root.masked = $line.re_replace_all("ip=(\\\\d+)\\\\.(\\\\d+)\\\\.\\\\d+\\\\.\\\\d+", "ip=$1.$2.x.x")
`;

export function rxRegexp(workDir: string, lines = 200_000): Workload {
  const dataFile = join(workDir, 'rx-lines.log');
  const configFile = join(workDir, 'rx.yaml');
  const figures = (seconds: number): Metrics => ({ rate: lines / seconds });
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s`;
  const title = 'RX regexp mapping';
  return {
    id: 'RX',
    title,
    describes: `${num(lines)} log lines -> mapping with re_match, re_find_object, re_find_all, re_replace_all -> drop; msgs/s against hand-written JS using V8 RegExp`,
    async setup() {
      const out = createWriteStream(dataFile);
      for (let i = 0; i < lines; i += 10_000) {
        const chunk: string[] = [];
        for (let j = i; j < Math.min(i + 10_000, lines); j++) chunk.push(logLine(j));
        if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      const mapping = REGEXP_MAPPING.split('\n')
        .map((l) => `        ${l}`)
        .join('\n');
      writeFileSync(
        configFile,
        `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n  file:\n    paths: [ ${JSON.stringify(dataFile)} ]\npipeline:\n  processors:\n    - mapping: |\n${mapping}\noutput:\n  drop: {}\n`,
      );
    },
    contenders: [
      { name: 'nekton', run: async () => figures(await timeNekton(['-c', configFile])) },
      {
        name: 'hand-written JS',
        run: async () =>
          figures(await timeCommand(process.execPath, ['bench/baselines/regexp_map.mjs', dataFile])),
      },
    ],
    report: (m: Measured) => [ratioRow(title, m, 'nekton', 'hand-written JS', 'rate', format)],
  };
}
