// The bench's outputs: the printed table, the JSON file under bench/results/, and the README block
// between `<!-- bench:start -->` and `<!-- bench:end -->` (the only part of the README it writes).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import type { WorkloadResult } from './harness.js';
import { ROOT } from './processes.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  date: string;
  /** 1-minute load averages at the start and the end of the run (absent in older result files). */
  load?: { start: number; end: number };
  /** Seconds the whole run took. */
  seconds?: number;
}

/** The machine as the run ends; `startLoad` and `seconds` say how loaded it was and how long it took. */
export function machine(startLoad?: number, seconds?: number): Machine {
  return {
    ...(startLoad === undefined ? {} : { load: { start: startLoad, end: loadavg()[0]! } }),
    ...(seconds === undefined ? {} : { seconds }),
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

export const machineLine = (m: Machine) =>
  `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.date.slice(0, 16).replace('T', ' ')} UTC`;

/** How loaded the machine was: other engineers' jobs share its cores, so wall-clock rates move with them. */
const loadLine = (m: Machine) =>
  m.load
    ? ` The machine was shared with other jobs: load average ${m.load.start.toFixed(1)} at the start, ${m.load.end.toFixed(1)} at the end, on ${m.cores} cores${m.seconds === undefined ? '' : `; the measurements took ${Math.round(m.seconds / 60)} min (plus the build \`npm run bench\` starts with, ~1 min)`}. Wall-clock rates move with that load, nekton's (several threads, a larger start-up) more than the single-threaded baselines'; the CPU-time rows are steadier.`
    : '';

const metText = (met: boolean | null) => (met === null ? '' : met ? 'yes' : '**no**');

export function table(results: WorkloadResult[]): string {
  const rows = [
    '| workload | nekton | baseline | baseline figure | ratio | target | met? |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const w of results) {
    if (w.skipped) {
      rows.push(`| ${w.title} | skipped: ${w.skipped} | | | | | |`);
      continue;
    }
    for (const r of w.rows) {
      rows.push(
        `| ${r.workload} | ${r.nekton} | ${r.baseline} | ${r.baselineFigure} | ${r.ratio} | ${r.target} | ${metText(r.met)} |`,
      );
    }
  }
  return rows.join('\n');
}

export function describeList(results: WorkloadResult[]): string {
  return results.map((w) => `- **${w.title}**: ${w.describes}.`).join('\n');
}

export function writeJson(results: WorkloadResult[], m: Machine, runs: number): string {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${m.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ machine: m, runs, results }, null, 2)}\n`);
  return file;
}

/** Rewrites the README's bench block: machine, table, what each workload measures, and bench/NOTES.md. */
export function writeReadme(results: WorkloadResult[], m: Machine, runs: number): void {
  const readme = join(ROOT, 'README.md');
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error('README.md has no bench:start/bench:end block');
  const notesFile = join(ROOT, 'bench', 'NOTES.md');
  const notes = existsSync(notesFile) ? `\n${readFileSync(notesFile, 'utf8').trim()}\n` : '';
  const block = [
    start,
    `Measured ${machineLine(m)}; median of ${runs} runs, nekton and baselines alternating in the same run.${loadLine(m)}`,
    '',
    table(results),
    '',
    describeList(results),
    notes,
    end,
  ].join('\n');
  writeFileSync(readme, text.slice(0, from) + block + text.slice(to + end.length));
}
