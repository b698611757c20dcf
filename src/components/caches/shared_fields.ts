// Fields the in-memory caches (`memory`, `lru`, `ttlru`) declare alike, as the reference does.
import { field } from '../../config/spec.js';

/** Entries present from the start; only the wording of what happens to them differs. */
export function initValuesField(description: string) {
  return field.map(
    field.string('init_values', description, {
      default: {},
      examples: [{ Nickelback: '1995', 'Spice Girls': '1994', 'The Human League': '1977' }],
    }),
  );
}

export function optimisticField() {
  return field.bool(
    'optimistic',
    'Accepted for compatibility. nekton runs each cache operation in one step on one thread, so `add` is always atomic.',
    { default: false, advanced: true },
  );
}
