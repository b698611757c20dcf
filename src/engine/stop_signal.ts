// The abort controller a stream (or the process) stops its components with.
import { setMaxListeners } from 'node:events';

/**
 * Every component of a stream listens to its stop signal, and composites add one per member (a
 * broker of 10 outputs adds 20): Node's "possible EventTarget memory leak" warning at 11 listeners
 * would be noise, so the limit is lifted for this signal only.
 */
export function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/**
 * AbortSignal.any with the listener limit lifted too: a processor that composes its own stop with
 * the stream's has one waiter per message in flight (a `sleep` in an output's processors runs for
 * up to max_in_flight messages at once), and Node warned of a leak at the eleventh.
 */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  const signal = AbortSignal.any(signals);
  setMaxListeners(0, signal);
  return signal;
}
