// The value model: what structured message content and Bloblang expressions hold. Integers
// outside the safe range are bigint; numbers a float64 cannot hold are JsonNumber; instants are
// Timestamp. It lives below Bloblang because messages parse into it and serialise from it.

/** A Bloblang value. Integers outside the safe range are bigint; timestamps are Timestamp. */
export type Value =
  | null
  | boolean
  | number
  | bigint
  | JsonNumber
  | string
  | Uint8Array
  | Timestamp
  | Value[]
  | { [key: string]: Value };

/**
 * The widest instant a calendar date can be computed for: JavaScript's Date range (±8.64e12 s,
 * about years -271821 to 275760) less two days, so a zone offset cannot push it out.
 */
const TIMESTAMP_LIMIT_NS = (8_640_000_000_000n - 172_800n) * 1_000_000_000n;

/**
 * An instant with nanosecond precision and the zone it is shown in. One outside the Date range
 * cannot be made (the error fails the message): it could never be shown as a date.
 */
export class Timestamp {
  constructor(
    /** Nanoseconds since the Unix epoch. */
    readonly epochNs: bigint,
    /** IANA zone name ('UTC', 'America/New_York') or a fixed offset like '+02:00'. */
    readonly zone: string = 'UTC',
  ) {
    if (epochNs > TIMESTAMP_LIMIT_NS || epochNs < -TIMESTAMP_LIMIT_NS)
      throw new BloblangError(
        `timestamp out of range: ${epochNs / 1_000_000_000n} seconds from the epoch is outside years -271821 to 275760`,
      );
  }
}

/**
 * A JSON number kept as it was written because a float64 cannot hold its value (1e400, 1e-400,
 * 0.1000000000000000000001): the reference decodes JSON numbers as text (Go's json.Number), so an
 * untouched field is written back with the same digits. Arithmetic reads it as a float64 and
 * fails when that is out of range, as the reference's json.Number.Float64() does.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  /** The float64 nearest to the text: ±Infinity when it overflows, 0 when it underflows. */
  toNumber(): number {
    return Number(this.text);
  }

  /** The float64 value for arithmetic; an error when the text overflows a float64. */
  toFiniteNumber(): number {
    const n = Number(this.text);
    if (!Number.isFinite(n))
      throw new BloblangError(`strconv.ParseFloat: parsing "${this.text}": value out of range`);
    return n;
  }
}

/** An error of a value operation; Bloblang reports it as a mapping error (bloblang/library.ts re-exports it). */
export class BloblangError extends Error {}

export type ValueObject = { [key: string]: Value };

/**
 * Nesting deeper than this is refused (the reference's encoding/json limit). Walks recurse up to
 * RECURSION_DEPTH levels (fast) and go on with an explicit stack below that, so a value nested up
 * to MAX_DEPTH never overflows the call stack.
 */
export const MAX_DEPTH = 10000;
export const RECURSION_DEPTH = 500;
