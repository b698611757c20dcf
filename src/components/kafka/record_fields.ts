// The record timestamp fields the `kafka` and `kafka_franz` outputs both declare, as the reference does.
import { field } from '../../config/spec.js';

const a = { advanced: true };

/** `timestamp` (deprecated, seconds) and `timestamp_ms`; setting both is refused by lint. */
export function recordTimestampFields() {
  return [
    field.interpolated('timestamp', 'Deprecated: the record timestamp in seconds since the epoch.', {
      optional: true,
      deprecated: true,
      ...a,
    }),
    field.interpolated('timestamp_ms', 'The record timestamp in milliseconds since the epoch.', {
      optional: true,
      ...a,
    }),
  ] as const;
}
