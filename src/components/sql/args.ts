// Evaluates an `args_mapping` for one message: the placeholder values, which must be an array.
import type { Mapping } from '../../bloblang/index.js';
import type { Message } from '../../message/message.js';

export function argsOf(mapping: Mapping | null, batch: readonly Message[], index: number): unknown[] {
  if (!mapping) return [];
  const value = mapping.query(batch, index);
  if (!Array.isArray(value)) {
    const got = value === null ? 'null' : typeof value;
    throw new Error(`args_mapping must produce an array, got ${got}`);
  }
  return value;
}
