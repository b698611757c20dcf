// `broker` round_robin: each batch goes to one member, taking turns. A failed write is reported
// upstream; the redelivered batch then lands on a later member.
import type { Batch } from '../../message/message.js';
import { MemberOutputs } from './member_outputs.js';

export class RoundRobinOutput extends MemberOutputs {
  private next = 0;

  write(batch: Batch): Promise<void> {
    const target = this.members[this.next]!;
    this.next = (this.next + 1) % this.members.length;
    return target.write(batch);
  }
}
