// Composite processors (switch, branch, while, try, catch, for_each) are written once as
// generators that yield each child-processor result; the driver resumes them synchronously while
// children answer synchronously, and only becomes async from the first child that returns a
// promise. This keeps the all-sync pipelines free of promise overhead without writing each
// processor twice.

import type { Processor } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { runProcessors } from '../../engine/observed_processor.js';
import type { Batch } from '../../message/message.js';

/** What a composite yields: a child result, sync or not; it is resumed with the settled value. */
export type Step = Batch[] | Promise<Batch[]>;
export type Steps<T> = Generator<Step, T, Batch[]>;

/** Runs a composite's generator to completion, synchronously when every step was synchronous. */
export function drive<T>(steps: Steps<T>): T | Promise<T> {
  let step = steps.next();
  while (!step.done) {
    const value = step.value;
    if (value instanceof Promise) return finish(steps, value);
    step = steps.next(value);
  }
  return step.value;
}

async function finish<T>(steps: Steps<T>, pending: Promise<Batch[]>): Promise<T> {
  let step = steps.next(await pending);
  while (!step.done) step = steps.next(await step.value);
  return step.value;
}

/** Which per-message lanes a processor stage runs on (try: not errored; catch: caught lanes). */
export type LaneFilter = (batch: Batch, lane: number) => boolean;

/**
 * The reference's ExecuteAll/TryAll/CatchAll over one-message batches: every message of the
 * batch is its own lane, each processor runs over every lane (where `runs` allows) before the
 * next processor, and the lanes are flattened back, in order, into one batch.
 */
export function* perMessageLanes(
  processors: readonly Processor[],
  batch: Batch,
  runs: LaneFilter | null,
): Steps<Batch> {
  const lanes: Batch[][] = new Array(batch.length);
  for (let i = 0; i < batch.length; i++) lanes[i] = [[batch[i]!]];
  for (const processor of processors) {
    for (let lane = 0; lane < lanes.length; lane++) {
      const current = lanes[lane]!;
      if (current.length === 0) continue;
      const next: Batch[] = [];
      for (const item of current) {
        if (runs !== null && !runs(item, lane)) {
          next.push(item);
          continue;
        }
        for (const out of yield processor.process(item)) if (out.length > 0) next.push(out);
      }
      lanes[lane] = next;
    }
  }
  const flat: Batch = [];
  for (const lane of lanes) for (const b of lane) for (const m of b) flat.push(m);
  return flat;
}

/** A child processor list applied to a batch, as one step of a composite. */
export function runChildren(processors: readonly Processor[], batch: Batch): Step {
  return runProcessors(processors, batch);
}

/** Closes child processors (all of them, even when one fails). */
export async function closeAll(processors: readonly Processor[]): Promise<void> {
  await Promise.allSettled(processors.map((p) => p.close()));
}

/** Builds a nested processor list from its normalised configs. */
export async function buildChildren(
  configs: readonly ComponentConfig[],
  ctx: BuildContext,
): Promise<Processor[]> {
  const out: Processor[] = [];
  for (const cc of configs) out.push(await ctx.buildProcessor(cc));
  return out;
}
