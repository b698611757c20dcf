// Public face of Bloblang for the rest of nekton. Components use only what is exported here.
import type { Message } from '../message/message.js';
import './core_functions.js';
// The catalogue helper owns catalogue.ts; importing it runs every function/method registration.
import './catalogue.js';
import { compileInterpolation } from './interpolation.js';
import type { Value } from './library.js';
import { compileMapping } from './mapping.js';

export { BloblangParseError, MappingError } from './errors.js';

export interface Mapping {
  /**
   * `mapping` processor semantics: a new document built from assignments, metadata copied from
   * the input. Returns the resulting message, or null when the mapping deleted it.
   * Throws MappingError when execution fails.
   */
  apply(batch: readonly Message[], index: number): Message | null;
  /** `mutation` processor semantics: assignments edit a copy of the input message in place. */
  applyMutation(batch: readonly Message[], index: number): Message | null;
  /**
   * `branch` semantics (the reference's MapOnto): queries read batch[index], assignments edit a
   * copy of `target` (its content is the starting root, its metadata what `@` reads).
   */
  applyOnto(target: Message, batch: readonly Message[], index: number): Message | null;
  /** Evaluates the mapping and returns the value assigned to `root` (used by `check` fields). */
  query(batch: readonly Message[], index: number): Value;
}

export interface Interpolation {
  /** True when the text contains no `${! }` so render always returns the same string. */
  readonly isStatic: boolean;
  render(batch: readonly Message[], index: number): string;
}

export interface ParseOptions {
  /** Directory that relative `import` and `from` paths are resolved against. */
  importDir?: string;
}

/** Parses and compiles a mapping once; throws BloblangParseError when it is invalid. */
export function parseMapping(text: string, options?: ParseOptions): Mapping {
  return compileMapping(text, options);
}

/** Parses a config string with `${! }` interpolations; throws BloblangParseError when invalid. */
export function parseInterpolation(text: string): Interpolation {
  return compileInterpolation(text);
}

export { type MappingTargets, mappingTargets, type TargetPath } from './targets.js';
