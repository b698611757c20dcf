// Composite outputs forward flush() (end of a finite input) to their members, so a member with a
// batching policy writes its partial batch instead of holding the source's acks forever.
import type { Output } from '../../engine/component.js';

export async function flushMembers(members: Iterable<Output>): Promise<void> {
  await Promise.all([...members].map((m) => m.flush?.()));
}
