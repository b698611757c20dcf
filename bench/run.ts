// `npm run bench [-- --json] [-- --readme] [-- --runs N] [-- --only W2,W6] [-- --readme-from FILE]`: every workload against its
// baselines in the same run; prints the table, optionally writes bench/results/<date>.json and the
// README's bench block.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, type Workload, type WorkloadResult } from './harness.js';
import { type Machine, machine, machineLine, table, writeJson, writeReadme } from './report.js';
import { rxRegexp } from './workloads/rx_regexp.js';
import { w1Lines } from './workloads/w1_lines.js';
import { w2Mapping } from './workloads/w2_mapping.js';
import { w2tThreads } from './workloads/w2t_threads.js';
import { w3Http } from './workloads/w3_http.js';
import { w4Amqp, w4Redis } from './workloads/w4_brokers.js';
import { w5FanOut } from './workloads/w5_fan_out.js';
import { w6Streams } from './workloads/w6_streams.js';
import { w7Batching } from './workloads/w7_batching.js';
import { w8BatchedOutputs } from './workloads/w8_batched_outputs.js';
import { w9Http, w10Protobuf, w11Avro } from './workloads/w9_components.js';
import { w12Fleet } from './workloads/w12_fleet.js';
import { w13SqliteBuffer } from './workloads/w13_sqlite_buffer.js';
import { w14PostgresCdc } from './workloads/w14_postgres_cdc.js';

const args = process.argv.slice(2);
const flagValue = (flag: string) => {
  const i = args.indexOf(flag);
  const inline = args.find((a) => a.startsWith(`${flag}=`));
  return inline ? inline.slice(flag.length + 1) : i >= 0 ? args[i + 1] : undefined;
};
const runs = Math.max(3, Number(flagValue('--runs') ?? 3));
const only = (flagValue('--only') ?? '')
  .split(',')
  .map((s) => s.trim().toUpperCase())
  .filter(Boolean);

// `--readme-from bench/results/X.json`: rewrite the README block from a saved run, measuring nothing.
const savedRun = flagValue('--readme-from');
if (savedRun) {
  const saved = JSON.parse(readFileSync(savedRun, 'utf8')) as {
    machine: Machine;
    runs: number;
    results: WorkloadResult[];
  };
  writeReadme(saved.results, saved.machine, saved.runs);
  process.stdout.write(`rewrote the README bench block from ${savedRun}\n`);
  process.exit(0);
}

const workDir = mkdtempSync(join(tmpdir(), 'nekton-bench-'));
const workloads: Workload[] = [
  w1Lines(workDir),
  w2Mapping(workDir),
  // 300k docs (the workload's default is 1M): stable at that size, and the whole bench fits 15 minutes.
  w2tThreads(workDir, 300_000),
  w3Http(workDir),
  w4Redis(workDir),
  w4Amqp(workDir),
  w5FanOut(workDir),
  w6Streams(workDir),
  w7Batching(workDir),
  w8BatchedOutputs(workDir),
  w9Http(workDir),
  w10Protobuf(workDir),
  w11Avro(workDir),
  w12Fleet(workDir),
  w13SqliteBuffer(workDir),
  w14PostgresCdc(workDir),
  rxRegexp(workDir),
];

const started = Date.now();
const startLoad = loadavg()[0]!;
const results: WorkloadResult[] = [];
try {
  for (const w of workloads) {
    if (only.length > 0 && !only.includes(w.id)) continue;
    process.stderr.write(`${w.title}: ${w.describes} (${runs} runs each)\n`);
    const began = Date.now();
    results.push(await measure(w, runs));
    process.stderr.write(
      `${w.id}: ${((Date.now() - began) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}\n`,
    );
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
const m = machine(startLoad, (Date.now() - started) / 1000);
process.stdout.write(
  `\nnekton bench — ${machineLine(m)}, load ${startLoad.toFixed(1)} -> ${m.load!.end.toFixed(1)}, median of ${runs} runs\n\n${table(results)}\n`,
);
process.stdout.write(`\ntotal ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
if (args.includes('--json')) process.stdout.write(`wrote ${writeJson(results, m, runs)}\n`);
if (args.includes('--readme')) {
  writeReadme(results, m, runs);
  process.stdout.write('rewrote the README bench block\n');
}
