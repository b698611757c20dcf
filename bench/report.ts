// The bench's outputs: the printed table, the JSON file under bench/results/, and the README block
// between `<!-- bench:start -->` and `<!-- bench:end -->` (the only part of the README it writes).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { WorkloadResult } from './harness.js';
import { ROOT } from './processes.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    date: new Date().toISOString(),
  };
}

export const machineLine = (m: Machine) =>
  `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.date.slice(0, 16).replace('T', ' ')} UTC`;

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
    `Measured ${machineLine(m)}; median of ${runs} runs, nekton and baselines alternating in the same run.`,
    '',
    table(results),
    '',
    describeList(results),
    notes,
    end,
  ].join('\n');
  writeFileSync(readme, text.slice(0, from) + block + text.slice(to + end.length));
}
