// The boolean `check` mappings of switch, while and the switch output.
import type { Mapping } from '../../bloblang/index.js';
import type { Message } from '../../message/message.js';

/** Runs a check mapping for batch[index]; throws when it fails or does not give a boolean. */
export function checkPasses(check: Mapping, batch: readonly Message[], index: number): boolean {
  const result = check.query(batch, index);
  if (typeof result === 'boolean') return result;
  throw new Error(`expected bool value, got ${kindOf(result)} from mapping`);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}
