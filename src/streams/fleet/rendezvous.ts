// Which node a stream belongs on: rendezvous (highest random weight) hashing over the live nodes.
// Every node computes the same answer from the same node list, and when a node joins or leaves only
// the streams that hash to it move.
import { createHash } from 'node:crypto';

export function preferredNode(streamId: string, nodeIds: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestWeight = -1n;
  for (const node of nodeIds) {
    const digest = createHash('sha256').update(`${node}\u0000${streamId}`).digest();
    const weight = digest.readBigUInt64BE(0);
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && node < best)) {
      best = node;
      bestWeight = weight;
    }
  }
  return best;
}
