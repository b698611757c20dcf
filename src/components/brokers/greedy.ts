// `broker` greedy: each batch goes to one member, whichever is free first, as if the members pulled
// from one shared queue (each holding one batch at a time, or up to its batching `count`: a member
// that batches must take that many writes before any of them completes). Faster members take more
// of the traffic, and a member that hangs stops receiving once it is full.
import type { Output } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { MemberOutputs } from './member_outputs.js';

export class GreedyOutput extends MemberOutputs {
  /** Writes each member holds now. */
  private readonly held: number[];
  private last = -1;
  /** Writes waiting for a free member, first come first served. */
  private readonly waiting: Array<(index: number) => void> = [];

  constructor(
    members: readonly Output[],
    /** How many writes each member may hold at once (default 1). */
    private readonly capacities: readonly number[] = [],
  ) {
    super(members);
    this.held = members.map(() => 0);
  }

  async write(batch: Batch): Promise<void> {
    const free = this.freeMember();
    const index = free ?? (await new Promise<number>((resolve) => this.waiting.push(resolve)));
    try {
      await this.members[index]!.write(batch);
    } finally {
      this.release(index);
    }
  }

  /** Claims the next free member after the last one picked, or undefined when all are busy. */
  private freeMember(): number | undefined {
    const n = this.members.length;
    for (let step = 1; step <= n; step++) {
      const i = (this.last + step) % n;
      if (this.held[i]! < (this.capacities[i] ?? 1)) {
        this.held[i]!++;
        this.last = i;
        return i;
      }
    }
    return undefined;
  }

  /** Hands the slot a member freed straight to the oldest waiting write. */
  private release(index: number): void {
    const next = this.waiting.shift();
    if (next) {
      this.last = index;
      next(index);
    } else {
      this.held[index]!--;
    }
  }
}
