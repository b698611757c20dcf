// W5: the W2 pipeline into a `broker` output with pattern fan_out over 1, 10 and 100 `drop`
// members, against the same pipeline with one plain `drop` output: the cost each member adds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeDocuments } from '../documents.js';
import type { Measured, Metrics, Row, Workload } from '../harness.js';
import { num } from '../harness.js';
import { isRegistered, timeNekton, timeNektonWithRss } from '../processes.js';
import { mappingConfig } from './w2_mapping.js';

const MEMBERS = [1, 10, 100];
/** The dynamic output (always fan-out) with this many static members, for memory per member. */
const DYNAMIC = [1, 100];

export function w5FanOut(workDir: string, docs = 50_000): Workload {
  const dataFile = join(workDir, 'w5-docs.jsonl');
  const single = join(workDir, 'w5-single.yaml');
  const fanOut = (n: number) => join(workDir, `w5-fan-out-${n}.yaml`);
  const dynamic = (n: number) => join(workDir, `w5-dynamic-${n}.yaml`);
  const withRss = async (config: string): Promise<Metrics> => {
    const { seconds, maxRssKb } = await timeNektonWithRss(['-c', config]);
    return { rate: docs / seconds, rssKb: maxRssKb };
  };
  const figures = (seconds: number): Metrics => ({ rate: docs / seconds });
  const title = 'W5 fan-out';
  return {
    id: 'W5',
    title,
    describes: `${num(docs)} JSON docs -> the W2 mapping -> broker fan_out of ${MEMBERS.join(', ')} drop members; msgs/s against the same pipeline with one drop output, the broker's own cost (fan_out 1 over one output) and the cost of each extra member (µs per message per member, fan_out n over fan_out 1); and a dynamic output with 1 and 100 static members: throughput ratio and peak RSS per member`,
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
      for (const n of DYNAMIC) {
        const members = Array.from({ length: n }, (_, i) => `      m${i}:\n        drop: {}\n`).join('');
        writeFileSync(dynamic(n), mappingConfig(dataFile, `  dynamic:\n    outputs:\n${members}`));
      }
    },
    contenders: [
      { name: 'one output', run: async () => figures(await timeNekton(['-c', single])) },
      ...MEMBERS.map((n) => ({
        name: `fan_out ${n}`,
        run: async () => figures(await timeNekton(['-c', fanOut(n)])),
      })),
      ...DYNAMIC.map((n) => ({ name: `dynamic ${n}`, run: () => withRss(dynamic(n)) })),
    ],
    report(m: Measured): Row[] {
      const base = m.medians.get('one output');
      const one = m.medians.get('fan_out 1');
      const rows: Row[] = MEMBERS.map((n) => {
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
      rows.push(dynamicRow(m, title));
      return rows;
    },
  };
}

/** Dynamic output with 100 members against 1: throughput ratio and peak memory held per extra member. */
function dynamicRow(m: Measured, title: string): Row {
  const one = m.medians.get('dynamic 1');
  const many = m.medians.get('dynamic 100');
  if (!one || !many) {
    const why = m.unavailable.get('dynamic 100') ?? m.unavailable.get('dynamic 1') ?? 'did not run';
    return {
      workload: `${title}: dynamic 100`,
      nekton: `unavailable (${why})`,
      baseline: 'dynamic 1',
      baselineFigure: '',
      ratio: '—',
      target: '',
      met: false,
    };
  }
  const perMember = (many.rssKb! - one.rssKb!) / 99;
  return {
    workload: `${title}: dynamic output, 100 members`,
    nekton: `${num(many.rate!)} msgs/s, ${perMember.toFixed(0)} KB peak RSS per member`,
    baseline: 'dynamic, 1 member',
    baselineFigure: `${num(one.rate!)} msgs/s, ${(one.rssKb! / 1024).toFixed(0)} MB peak RSS`,
    ratio: (many.rate! / one.rate!).toFixed(2),
    target: 'reported',
    met: null,
  };
}
