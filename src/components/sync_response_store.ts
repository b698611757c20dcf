// Where `sync_response` outputs leave results for the input that must answer a request
// (http_server): a store per request, looked up from any message derived from it.
// Kept off Message on purpose: a WeakMap costs nothing for streams that never use it.
import type { Batch, Message } from '../message/message.js';

export class ResponseStore {
  private readonly batches: Batch[] = [];

  add(batch: Batch): void {
    this.batches.push(batch);
  }

  /** Every message stored, in the order they arrived. */
  messages(): Message[] {
    const batches = this.batches;
    if (batches.length === 0) return [];
    return batches.length === 1 ? (batches[0] as Message[]) : batches.flat();
  }
}

const stores = new WeakMap<Message, ResponseStore>();

export function attachResponseStore(batch: Batch, store: ResponseStore): void {
  for (const msg of batch) stores.set(msg, store);
}

export function responseStoreOf(msg: Message): ResponseStore | undefined {
  return stores.get(msg);
}

/**
 * The engine calls this when processors turn `from` (a batch read from an input) into `to`:
 * derived messages answer to the same request. One lookup per batch when no store exists.
 */
export function inheritResponseStore(from: Batch, to: Batch): void {
  const first = from[0];
  const store = first && stores.get(first);
  if (!store) return;
  for (const msg of to) if (!stores.has(msg)) stores.set(msg, store);
}
