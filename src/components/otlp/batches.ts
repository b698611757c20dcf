// What both OTLP outputs share: a batch of messages grouped by signal into one request each.
import type { Batch } from '../../message/message.js';
import { mergeRequests, parseMessage, SIGNALS, type Signal, signalOfJson } from './codec.js';

type Json = Record<string, unknown>;

/**
 * One merged request per signal present in the batch, in trace, log, metric order. A message's
 * signal is its `signal_type` metadata (what the OTLP inputs set), else read from its OTLP JSON.
 * Throws (the batch fails) for a message that is no OTLP request.
 */
export function requestsOf(batch: Batch): [Signal, Json][] {
  const bySignal = new Map<Signal, Json[]>();
  batch.forEach((msg, i) => {
    const meta = msg.getMeta('signal_type');
    let signal = typeof meta === 'string' ? (SIGNALS.find((s) => s === meta) ?? undefined) : undefined;
    if (signal === undefined) {
      try {
        signal = signalOfJson(msg.structured());
      } catch {
        signal = undefined;
      }
    }
    if (signal === undefined) {
      throw new Error(
        `message ${i}: no signal_type metadata (trace, log or metric) and no OTLP JSON request`,
      );
    }
    let request: Json;
    try {
      request = parseMessage(signal, msg.bytes());
    } catch (err) {
      throw new Error(`message ${i}: not an OTLP ${signal} request: ${(err as Error).message}`);
    }
    const list = bySignal.get(signal);
    if (list) list.push(request);
    else bySignal.set(signal, [request]);
  });
  const out: [Signal, Json][] = [];
  for (const s of SIGNALS) {
    const list = bySignal.get(s);
    if (list) out.push([s, mergeRequests(s, list)]);
  }
  return out;
}
