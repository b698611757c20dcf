// The stages of a `workflow`: checked from an explicit `order`, or inferred from what each
// branch's request map reads and its result map writes (the reference's rules and error texts).
import type { MappingTargets, TargetPath } from '../../bloblang/index.js';

/** Go's `%v` of a string list, as the reference's errors print names: `[a b]`. */
export function goList(names: readonly string[]): string {
  return `[${names.join(' ')}]`;
}

/** True when a branch writing `written` provides what a branch reading `read` wants. */
function provides(written: TargetPath, read: TargetPath): boolean {
  if (written.kind !== read.kind || read.path.length < written.path.length) return false;
  return written.path.every((segment, i) => read.path[i] === segment);
}

/** The other branches whose results `id` reads. */
function dependencies(id: string, branches: ReadonlyMap<string, MappingTargets>): Set<string> {
  const wanted = branches.get(id)!.reads;
  const out = new Set<string>();
  for (const [other, targets] of branches) {
    if (other === id) continue;
    if (targets.writes.some((w) => wanted.some((r) => provides(w, r)))) out.add(other);
  }
  return out;
}

/**
 * Stages of branches, each stage holding the branches whose dependencies all ran in earlier
 * stages (names sorted within a stage). Throws when some branches can never run.
 */
export function inferStages(branches: ReadonlyMap<string, MappingTargets>): string[][] {
  const pending = new Map<string, Set<string>>();
  for (const id of branches.keys()) pending.set(id, dependencies(id, branches));
  const placed = new Set<string>();
  const stages: string[][] = [];
  while (pending.size > 0) {
    const ready = [...pending].filter(([, deps]) => [...deps].every((d) => placed.has(d))).map(([id]) => id);
    if (ready.length === 0) {
      throw new Error(
        `failed to automatically resolve DAG, circular dependencies detected for branches: ${goList([...pending.keys()].sort())}`,
      );
    }
    ready.sort();
    for (const id of ready) {
      pending.delete(id);
      placed.add(id);
    }
    stages.push(ready);
  }
  return stages;
}

/** Checks an explicit order names every branch exactly once, in tiers that are not empty. */
export function checkOrder(order: readonly (readonly string[])[], names: Iterable<string>): void {
  const remaining = new Set(names);
  const seen = new Set<string>();
  order.forEach((tier, i) => {
    if (tier.length === 0) throw new Error(`explicit order tier '${i}' was empty`);
    for (const id of tier) {
      if (seen.has(id)) throw new Error(`branch specified in order listed multiple times: ${id}`);
      seen.add(id);
      remaining.delete(id);
    }
  });
  if (remaining.size > 0)
    throw new Error(`the following branches were missing from order: ${goList([...remaining].sort())}`);
}

const BRANCH_NAME = /^[a-zA-Z0-9_-]+$/;

/** The reference's rule for names under `branches`. */
export function checkBranchName(name: string): void {
  if (!BRANCH_NAME.test(name)) throw new Error(`workflow branch name '${name}' contains invalid characters`);
}
