// Go-style durations ("1.5s", "300ms", "1h2m") for component fields: the shared parser, with
// the field name in the error so a bad value points at its field. "" means 0 (unset).
import { parseDurationMs } from '../../config/duration.js';
import { FieldValueError } from '../../engine/errors.js';

export function durationMs(text: string, fieldName = 'duration'): number {
  if (text.trim() === '') return 0;
  try {
    return parseDurationMs(text.trim());
  } catch (err) {
    throw new FieldValueError(fieldName, (err as Error).message);
  }
}
