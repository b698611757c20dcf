// One source transaction split into several parts (by processors or an input batching policy).
import type { Transaction } from './component.js';

/** An ack shared by `parts` derived transactions: the first error, or success once all succeed. */
export function sharedAck(txn: Transaction, parts: number): Transaction['ack'] {
  let remaining = parts;
  let done = false;
  return async (err) => {
    if (done) return;
    if (err) {
      done = true;
      return txn.ack(err);
    }
    if (--remaining === 0) {
      done = true;
      return txn.ack(null);
    }
  };
}
