// W1: a file of 1M lines (100 bytes each) -> nekton `file` input -> `stdout` output into /dev/null,
// against a hand-written Node line pipe and `cat`. Target: at least 0.8 of the Node pipe.
import { once } from 'node:events';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Measured, type Metrics, num, ratioRow, type Workload } from '../harness.js';
import { timeCommand, timeNekton } from '../processes.js';

export function w1Lines(workDir: string, lines = 1_000_000): Workload {
  const dataFile = join(workDir, 'w1-lines.txt');
  const configFile = join(workDir, 'w1.yaml');
  const bytes = lines * 100;
  const figures = (seconds: number): Metrics => ({ rate: lines / seconds, mbps: bytes / seconds / 1e6 });
  const format = (m: Metrics) => `${num(m.rate!)} msgs/s, ${m.mbps!.toFixed(0)} MB/s`;
  const title = 'W1 lines';
  return {
    id: 'W1',
    title,
    describes: `file of ${num(lines)} lines (100 B) -> stdout into /dev/null; msgs/s and MB/s against a hand-written Node line pipe and cat`,
    async setup() {
      const out = createWriteStream(dataFile);
      const tail = 'x'.repeat(90);
      for (let i = 0; i < lines; i += 10_000) {
        let chunk = '';
        for (let j = i; j < Math.min(i + 10_000, lines); j++)
          chunk += `${String(j).padStart(9, '0')}${tail}\n`;
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      writeFileSync(
        configFile,
        `http:\n  enabled: false\nlogger:\n  level: WARN\ninput:\n  file:\n    paths: [ ${JSON.stringify(dataFile)} ]\noutput:\n  stdout: {}\n`,
      );
    },
    contenders: [
      { name: 'nekton', run: async () => figures(await timeNekton(['-c', configFile])) },
      {
        name: 'node line pipe',
        run: async () =>
          figures(await timeCommand(process.execPath, ['bench/baselines/line_pipe.mjs', dataFile])),
      },
      { name: 'cat', run: async () => figures(await timeCommand('cat', [dataFile])) },
    ],
    report: (m: Measured) => [
      ratioRow(title, m, 'nekton', 'node line pipe', 'rate', format, 0.8),
      ratioRow(title, m, 'nekton', 'cat', 'rate', format),
    ],
  };
}
