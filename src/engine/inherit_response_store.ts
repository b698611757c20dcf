// A request's sync-response store follows the messages processors derive from the request's
// messages. The engine does this as processors run, so it lives beside them, below components.
import type { Batch } from '../message/message.js';

/**
 * The engine calls this when processors turn `from` (a batch read from an input) into `to`:
 * derived messages answer to the same request (a message that already answers to one keeps it).
 */
export function inheritResponseStore(from: Batch, to: Batch): void {
  const store = from.length > 0 ? from[0]!.responseSink : null;
  if (store === null) return;
  for (const msg of to) if (msg.responseSink === null) msg.responseSink = store;
}
