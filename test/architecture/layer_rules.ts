// The layer order of src/ and the two checks that keep it: no import points up a layer, and no
// files import each other in a cycle.
import type { ImportEdge } from './import_graph.js';

/**
 * Lowest first. A file may import from its own layer or any layer below; directories sharing a
 * layer may import each other (config and engine), as long as no file-level cycle results.
 * Type-only imports obey the same direction: a type belongs in the lowest layer that uses it.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['base', 'message', 'regexp', 'types'],
  ['formats'],
  ['bloblang'],
  ['config', 'engine'],
  ['listener'],
  ['components'],
  ['metrics'],
  ['tracing'],
  ['http', 'playground', 'console'],
  ['service'],
  ['plugins'],
  ['templates', 'api'],
  ['streams'],
  ['cli'],
];

/** Says whether an upward import is still allowed (a known exception the test names). */
export type Allowance = (edge: ImportEdge) => boolean;

export interface Violation {
  edge: ImportEdge;
  reason: string;
}

export function layerOf(path: string, layers = LAYERS): number | undefined {
  const dir = path.split('/')[0];
  const index = layers.findIndex((layer) => layer.includes(dir));
  return index < 0 ? undefined : index;
}

/** Every import that points to a higher layer, or from/to a top-level directory no layer names. */
export function upwardImports(
  edges: readonly ImportEdge[],
  allowed: Allowance = () => false,
  layers = LAYERS,
): Violation[] {
  const violations: Violation[] = [];
  for (const edge of edges) {
    const from = layerOf(edge.from, layers);
    const to = layerOf(edge.to, layers);
    if (from === undefined || to === undefined) {
      const missing = from === undefined ? edge.from : edge.to;
      violations.push({ edge, reason: `${missing.split('/')[0]}/ is in no layer: add it to LAYERS` });
    } else if (to > from && !allowed(edge)) {
      violations.push({
        edge,
        reason: `${edge.from.split('/')[0]}/ must not import from ${edge.to.split('/')[0]}/, a higher layer`,
      });
    }
  }
  return violations;
}

/**
 * Cycles among files through static value imports: the imports that make modules load in a cycle
 * (a module then runs before one it needs has finished). Type-only imports are erased, and a
 * dynamic `import()` runs only when called, after loading. Each cycle is listed as the files in
 * import order, the first repeated last.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.typeOnly || edge.dynamic || edge.from === edge.to) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  return stronglyConnected(next)
    .filter((component) => component.length > 1)
    .map((component) => cycleThrough(component, next));
}

/** Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack. */
function stronglyConnected(next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.node) ?? [];
      if (frame.child < targets.length) {
        const target = targets[frame.child++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, child: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** One concrete cycle inside a strongly connected component, found by a breadth-first search. */
function cycleThrough(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of next.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [...component, start];
}
