// The kinds `nekton list` knows, named as the reference names them (`inputs`, `rate-limits`,
// `bloblang-functions`), and the names of each kind this build has.
// Importing the public face registers every Bloblang function and method.
import '../bloblang/index.js';
import { functionNames, methodNames } from '../bloblang/library.js';
import type { ComponentKind, ComponentStatus } from '../config/spec.js';
import type { Registry } from '../engine/registry.js';
import { METRICS_TYPES } from '../metrics/index.js';
import { processRegistry } from '../plugins/process_registry.js';

export const LIST_KINDS = [
  'inputs',
  'processors',
  'outputs',
  'caches',
  'rate-limits',
  'buffers',
  'metrics',
  'tracers',
  'scanners',
  'bloblang-functions',
  'bloblang-methods',
] as const;

export type ListKind = (typeof LIST_KINDS)[number];

const COMPONENT_OF: Partial<Record<ListKind, ComponentKind>> = {
  inputs: 'input',
  processors: 'processor',
  outputs: 'output',
  caches: 'cache',
  'rate-limits': 'rate_limit',
  buffers: 'buffer',
  scanners: 'scanner',
};

/** `input`, `inputs`, `rate_limit`, `rate-limits`, `tracer` ... -> the reference's name; else undefined. */
export function listKindOf(arg: string): ListKind | undefined {
  const dashed = arg.toLowerCase().replaceAll('_', '-');
  return LIST_KINDS.find(
    (k) => k === dashed || k === `${dashed}s` || (k === 'metrics' && dashed === 'metric'),
  );
}

export function componentKindOf(kind: ListKind): ComponentKind | undefined {
  return COMPONENT_OF[kind];
}

/**
 * The names of a kind, sorted. `status` keeps only components of that status (Bloblang functions
 * and methods, metrics and tracers carry none here: they are kept).
 */
export function namesOf(
  kind: ListKind,
  status?: ComponentStatus,
  registry: Registry = processRegistry(),
): string[] {
  const component = COMPONENT_OF[kind];
  if (component) {
    return registry
      .list(component)
      .filter((s) => status === undefined || s.status === status)
      .map((s) => s.name)
      .sort();
  }
  switch (kind) {
    case 'metrics':
      return [...METRICS_TYPES].sort();
    case 'tracers':
      // nekton traces nothing yet: `none` is what runs (lint refuses the others).
      return ['none'];
    case 'bloblang-functions':
      return functionNames();
    default:
      return methodNames();
  }
}
