// An output that writes through a fixed list of member outputs (round_robin, greedy, fallback):
// only how a batch picks its member differs; states, flush and close are the members'.
import type { ConnectionStatus, Output } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { flushMembers } from './flush_members.js';

export abstract class MemberOutputs implements Output {
  constructor(protected readonly members: readonly Output[]) {}

  abstract write(batch: Batch): Promise<void>;

  statuses(): ConnectionStatus[] {
    return this.members.flatMap((m) => m.statuses());
  }

  async flush(): Promise<void> {
    await flushMembers(this.members);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.members.map((m) => m.close()));
  }
}
