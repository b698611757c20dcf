// Whether a freshly started stream really started: its inputs and outputs connect eagerly, so a
// listener whose address is taken (or a broker that refuses the credentials) shows up within
// moments as a connection error. A stream still trying when the wait ends is given the benefit
// of the doubt: a slow network is not a broken config.
import type { Stream } from '../engine/stream.js';

/** How long an update waits for the new stream's first connects before calling it started. */
export const DEFAULT_START_CHECK_MS = 2_000;
const POLL_MS = 10;

/** The first connection failure of a just-started stream (`<path>: <error>`), or undefined. */
export async function firstConnectFailure(stream: Stream, waitMs: number): Promise<string | undefined> {
  const deadline = Date.now() + Math.max(0, waitMs);
  for (;;) {
    // A stream that already finished (a finite input) started fine.
    if (!stream.active) return undefined;
    const statuses = stream.statuses();
    const failed = statuses.find((s) => !s.connected && s.error);
    if (failed) return `${failed.path}: ${failed.error}`;
    if (statuses.every((s) => s.connected) || Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
