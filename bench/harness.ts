// Runs a workload's contenders (nekton and its baselines) in the same run, alternating them so drift
// on a shared machine hits all alike, and keeps the median of each metric. Wall-clock numbers belong
// here, never in tests.

/** What one run of a contender measured, e.g. `{ rate: 812345, mbps: 81 }`. */
export type Metrics = Record<string, number>;

export interface Contender {
  name: string;
  run(): Promise<Metrics>;
}

/** One line of the printed table. */
export interface Row {
  workload: string;
  nekton: string;
  baseline: string;
  baselineFigure: string;
  ratio: string;
  target: string;
  /** null when the row has no target. */
  met: boolean | null;
}

export interface Measured {
  /** Median of each metric, per contender that ran. */
  medians: Map<string, Metrics>;
  /** Every run's metrics, per contender (for the JSON file). */
  samples: Map<string, Metrics[]>;
  /** Contenders that could not run, with the reason. */
  unavailable: Map<string, string>;
}

export interface Workload {
  /** `W1` ... `W6`, for `--only`. */
  id: string;
  title: string;
  /** What is measured and what it is compared with. */
  describes: string;
  /** A reason to skip the whole workload (a component not registered, a service down). */
  skipReason?(): Promise<string | undefined>;
  setup(): Promise<void>;
  teardown?(): Promise<void>;
  contenders: Contender[];
  report(measured: Measured): Row[];
}

export interface WorkloadResult {
  id: string;
  title: string;
  describes: string;
  skipped?: string;
  rows: Row[];
  medians?: Record<string, Metrics>;
  samples?: Record<string, Metrics[]>;
  unavailable?: Record<string, string>;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function medianMetrics(runs: Metrics[]): Metrics {
  const out: Metrics = {};
  for (const key of Object.keys(runs[0] ?? {})) out[key] = median(runs.map((r) => r[key]!));
  return out;
}

const log = (text: string) => process.stderr.write(`${text}\n`);

export async function measure(workload: Workload, runs: number): Promise<WorkloadResult> {
  const base = { id: workload.id, title: workload.title, describes: workload.describes };
  const skipped = await workload.skipReason?.();
  if (skipped) {
    log(`${workload.id}: skipped: ${skipped}`);
    return { ...base, skipped, rows: [] };
  }
  await workload.setup();
  const samples = new Map<string, Metrics[]>(workload.contenders.map((c) => [c.name, []]));
  const unavailable = new Map<string, string>();
  try {
    for (let i = 0; i < runs; i++) {
      for (const c of workload.contenders) {
        if (unavailable.has(c.name)) continue;
        try {
          const m = await c.run();
          samples.get(c.name)!.push(m);
          log(`  ${workload.id} run ${i + 1}/${runs} ${c.name}: ${describeMetrics(m)}`);
        } catch (err) {
          const reason = err instanceof Error ? err.message : String(err);
          unavailable.set(c.name, reason);
          log(`  ${workload.id} ${c.name}: unavailable: ${reason}`);
        }
      }
    }
  } finally {
    await workload.teardown?.();
  }
  const medians = new Map<string, Metrics>();
  for (const [name, list] of samples) if (list.length > 0) medians.set(name, medianMetrics(list));
  const rows = workload.report({ medians, samples, unavailable });
  return {
    ...base,
    rows,
    medians: Object.fromEntries(medians),
    samples: Object.fromEntries(samples),
    unavailable: Object.fromEntries(unavailable),
  };
}

function describeMetrics(m: Metrics): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : v.toFixed(3)}`)
    .join(' ');
}

/** `1234567` -> `1,234,567`. */
export const num = (n: number): string => Math.round(n).toLocaleString('en-US');

/**
 * The common row: nekton's `key` metric against one baseline's, higher is better. A baseline that did
 * not run shows why, and its target counts as not met only when nekton itself did not run.
 */
export function ratioRow(
  workload: string,
  measured: Measured,
  nektonName: string,
  baselineName: string,
  key: string,
  format: (m: Metrics) => string,
  target?: number,
): Row {
  const n = measured.medians.get(nektonName);
  const b = measured.medians.get(baselineName);
  const targetText = target === undefined ? '' : `≥ ${target}`;
  if (!n || !b) {
    const missing = n ? baselineName : nektonName;
    const why = measured.unavailable.get(missing) ?? 'did not run';
    return {
      workload,
      nekton: n ? format(n) : `unavailable (${why})`,
      baseline: baselineName,
      baselineFigure: b ? format(b) : `unavailable (${why})`,
      ratio: '—',
      target: targetText,
      met: target === undefined || n ? null : false,
    };
  }
  const ratio = n[key]! / b[key]!;
  return {
    workload,
    nekton: format(n),
    baseline: baselineName,
    baselineFigure: format(b),
    ratio: ratio.toFixed(2),
    target: targetText,
    met: target === undefined ? null : ratio >= target,
  };
}

/**
 * The baseline's CPU seconds over nekton's for the same work (higher is better, as for rates):
 * what each contender costs, steadier than wall-clock rates on a shared machine. No target.
 */
export function cpuRow(workload: string, measured: Measured, nektonName: string, baselineName: string): Row {
  const n = measured.medians.get(nektonName)?.cpu;
  const b = measured.medians.get(baselineName)?.cpu;
  const seconds = (x: number | undefined) => (x === undefined ? 'not measured' : `${x.toFixed(2)} s CPU`);
  return {
    workload,
    nekton: seconds(n),
    baseline: baselineName,
    baselineFigure: seconds(b),
    ratio: n && b ? (b / n).toFixed(2) : '—',
    target: '',
    met: null,
  };
}
