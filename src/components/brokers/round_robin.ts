// `broker` round_robin: each batch goes to one member, taking turns. A failed write is reported
// upstream; the redelivered batch then lands on a later member.
import type { ConnectionStatus, Output } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { flushMembers } from './flush_members.js';

export class RoundRobinOutput implements Output {
  private next = 0;

  constructor(private readonly members: readonly Output[]) {}

  write(batch: Batch): Promise<void> {
    const target = this.members[this.next]!;
    this.next = (this.next + 1) % this.members.length;
    return target.write(batch);
  }

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
