// Where `sync_response` outputs leave results for the input that must answer a request
// (http_server): a store per request, looked up from any message derived from it. The store
// travels in a field of the message (Message.responseSink), set here and by the engine only.
import { type Batch, type Message, type ResponseSink, serialiseBatch } from '../message/message.js';

export class ResponseStore implements ResponseSink {
  /** Made on the first add: most requests never get a sync response. */
  private batches: Batch[] | null = null;

  /**
   * Throws when a message's content cannot be serialised (a structure holding NaN, say): the
   * caller fails the batch, so the request is answered with that error instead of hanging when
   * the answer is written.
   */
  add(batch: Batch): void {
    serialiseBatch(batch);
    if (this.batches === null) this.batches = [batch];
    else this.batches.push(batch);
  }

  /** Nothing was stored (most requests): answered without building a list. */
  get empty(): boolean {
    return this.batches === null;
  }

  /** Every message stored, in the order they arrived. */
  messages(): Message[] {
    const batches = this.batches;
    if (batches === null) return [];
    return batches.length === 1 ? (batches[0] as Message[]) : batches.flat();
  }
}

export function attachResponseStore(batch: Batch, store: ResponseSink): void {
  for (const msg of batch) msg.responseSink = store;
}

export function responseStoreOf(msg: Message): ResponseSink | undefined {
  return msg.responseSink ?? undefined;
}
