// W5: the W2 pipeline into a `broker` output with pattern fan_out over 1, 10 and 100 `drop`
// members, against the same pipeline with one plain `drop` output: the cost each member adds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDocuments } from '../documents.js';
import type { Measured, Metrics, Row, Workload } from '../harness.js';
import { num } from '../harness.js';
import { isRegistered, timeNekton } from '../processes.js';
import { mappingConfig } from './w2_mapping.js';

const MEMBERS = [1, 10, 100];

export function w5FanOut(workDir: string, docs = 100_000): Workload {
  const dataFile = join(workDir, 'w5-docs.jsonl');
  const single = join(workDir, 'w5-single.yaml');
  const fanOut = (n: number) => join(workDir, `w5-fan-out-${n}.yaml`);
  const figures = (seconds: number): Metrics => ({ rate: docs / seconds });
  const title = 'W5 fan-out';
  return {
    id: 'W5',
    title,
    describes: `${num(docs)} JSON docs -> the W2 mapping -> broker fan_out of ${MEMBERS.join(', ')} drop members; msgs/s against the same pipeline with one drop output, the broker's own cost (fan_out 1 over one output) and the cost of each extra member (µs per message per member, fan_out n over fan_out 1)`,
    async skipReason() {
      return (await isRegistered('outputs', 'broker')) ? undefined : 'broker output not available';
    },
    async setup() {
      await writeDocuments(dataFile, docs);
      writeFileSync(single, mappingConfig(dataFile, '  drop: {}\n'));
      for (const n of MEMBERS) {
        const members = Array.from({ length: n }, () => '      - drop: {}\n').join('');
        writeFileSync(
          fanOut(n),
          mappingConfig(dataFile, `  broker:\n    pattern: fan_out\n    outputs:\n${members}`),
        );
      }
    },
    contenders: [
      { name: 'one output', run: async () => figures(await timeNekton(['-c', single])) },
      ...MEMBERS.map((n) => ({
        name: `fan_out ${n}`,
        run: async () => figures(await timeNekton(['-c', fanOut(n)])),
      })),
    ],
    report(m: Measured): Row[] {
      const base = m.medians.get('one output');
      const one = m.medians.get('fan_out 1');
      return MEMBERS.map((n) => {
        const name = `fan_out ${n}`;
        const r = m.medians.get(name);
        if (!r || !base || !one) {
          const why = m.unavailable.get(name) ?? m.unavailable.get('fan_out 1') ?? 'did not run';
          return {
            workload: `${title} ${n}`,
            nekton: `unavailable (${why})`,
            baseline: 'one output',
            baselineFigure: '',
            ratio: '—',
            target: '',
            met: false,
          };
        }
        // Seconds per message: the broker itself (fan_out 1 over a plain output), then each extra member
        // (fan_out n over fan_out 1, spread over the n - 1 added members), in µs per message.
        const cost =
          n === 1
            ? `broker ${((1 / r.rate! - 1 / base.rate!) * 1e6).toFixed(2)} µs/msg`
            : `${(((1 / r.rate! - 1 / one.rate!) / (n - 1)) * 1e6).toFixed(2)} µs/msg per member`;
        return {
          workload: `${title} ${n}`,
          nekton: `${num(r.rate!)} msgs/s, ${cost}`,
          baseline: 'one output',
          baselineFigure: `${num(base.rate!)} msgs/s`,
          ratio: (r.rate! / base.rate!).toFixed(2),
          target: 'reported',
          met: null,
        };
      });
    },
  };
}
