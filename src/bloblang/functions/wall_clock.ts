// The clock behind `now()` and `timestamp_unix*()`: wall-clock time with nanosecond steps that never
// go back within the process. Date.now() has millisecond resolution, so the nanoseconds come from
// the monotonic clock anchored to it once (and again only if the two drift apart, e.g. after the
// system clock is set); small backward steps of a re-anchor are held at the last value.

/** Re-anchor when the monotonic reading strays this far from Date.now(). */
const RESYNC_NS = 100_000_000n;

let offsetNs: bigint | undefined;
let lastNs = 0n;

function wallNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** Nanoseconds since the Unix epoch; never smaller than the previous reading (small steps back held). */
export function wallClockNs(): bigint {
  const mono = process.hrtime.bigint();
  const wall = wallNs();
  if (offsetNs === undefined) offsetNs = wall - mono;
  let now = mono + offsetNs;
  const drift = now - wall;
  // Date.now() truncates to the millisecond, so a reading up to 1 ms ahead of it is expected.
  if (drift > RESYNC_NS || drift < -RESYNC_NS) {
    offsetNs = wall - mono;
    now = wall;
  }
  // A large jump back (the system clock was set back) is followed: wall-clock time wins.
  if (now < lastNs && lastNs - now <= RESYNC_NS) now = lastNs;
  lastNs = now;
  return now;
}
