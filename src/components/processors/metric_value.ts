// Reads the `metric` processor's rendered value the way the reference does (Go's ParseInt, then
// ParseFloat): a non-negative integer or float, else an error naming what was wrong.

const INTEGER = /^[+-]?[0-9]+$/;
const DECIMAL = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const SPECIAL = /^[+-]?(inf|infinity|nan)$/i;

/** The value for `counter_by` and `gauge`. NaN is refused: it would poison the series for good. */
export function parseMetricValue(text: string): number {
  if (INTEGER.test(text)) {
    const value = Number(text);
    if (value < 0) throw new Error(`value ${text} is negative`);
    return value;
  }
  if (!DECIMAL.test(text) && !SPECIAL.test(text)) {
    throw new Error(`value ${JSON.stringify(text)} is not a number`);
  }
  const value = Number(text.replace(/infinity|inf/i, 'Infinity').replace(/nan/i, 'NaN'));
  if (Number.isNaN(value)) throw new Error('value NaN is not a number');
  if (value < 0) throw new Error(`value ${text} is negative`);
  return value;
}

/** A whole, non-negative number of nanoseconds, for `timing`. */
export function parseTimingValue(text: string): number {
  if (!INTEGER.test(text)) throw new Error(`value ${JSON.stringify(text)} is not an integer`);
  const value = Number(text);
  if (value < 0) throw new Error('value is negative');
  return value;
}
