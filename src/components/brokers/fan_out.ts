// Fan-out to a set of member outputs that may change while messages flow (`broker` fan_out
// patterns, `dynamic` output). Each write goes, as copies, to the members present when it was
// dispatched; it succeeds once every one of them has written it and fails with the first error.
import {
  failedBatches,
  failedMessages,
  partialError,
  partialGroupError,
  wholeFailure,
} from '../../engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import { writeGroupTo } from '../../engine/group_write.js';
import { type Batch, copyBatch } from '../../message/message.js';
import { flushMembers } from './flush_members.js';

export interface FanOutOptions {
  /** Write to one member after another (in insertion order) instead of all at once. */
  sequential?: boolean;
  /**
   * Give each member its own copy of the batch (default). Off when every member copies what it
   * writes itself (a `retry` wrapper does), which saves one copy per member per batch.
   */
  copyPerMember?: boolean;
}

interface Dispatched {
  targets: Output[];
  reject: (err: Error) => void;
}

export class FanOutOutput implements Output {
  private readonly members = new Map<string, Output>();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Dispatched writes not settled yet, with the members they went to. */
  private readonly dispatched = new Set<Dispatched>();
  /** Writes waiting for a first member (nothing is dropped while the set is empty). */
  private memberWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: FanOutOptions = {}) {}

  /** Adds or replaces a member; returns the member it replaced (the caller closes it). */
  set(id: string, output: Output): Output | undefined {
    if (this.closed) throw new Error('the broker is closed');
    const old = this.members.get(id);
    this.members.set(id, output);
    for (const wake of this.memberWaiters.splice(0)) wake();
    return old;
  }

  /** Takes a member out: later writes skip it. Returns it so the caller can close it. */
  remove(id: string): Output | undefined {
    const old = this.members.get(id);
    this.members.delete(id);
    return old;
  }

  has(id: string): boolean {
    return this.members.has(id);
  }

  ids(): string[] {
    return [...this.members.keys()];
  }

  write(batch: Batch): Promise<void> {
    return this.send([batch]);
  }

  /**
   * A group of batches (read together from one input) in one call per member: each member gets
   * every batch of it, in order, through its own group write. When members say which batches
   * failed (GroupWriteError), only those fail the group; otherwise it fails as a whole.
   */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    return this.send(batches);
  }

  private send(batches: readonly Batch[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the broker is closed'));
    // Snapshot now, synchronously: a member added later must not see these batches.
    const written =
      this.members.size > 0
        ? this.dispatch(batches, [...this.members.values()])
        : this.waitThenWrite(batches);
    this.inFlight.add(written);
    const forget = () => this.inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  statuses(): ConnectionStatus[] {
    return [...this.members.values()].flatMap((m) => m.statuses());
  }

  async flush(): Promise<void> {
    await flushMembers(this.members.values());
  }

  /** Lets dispatched writes finish, then closes every member. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.memberWaiters.splice(0)) wake();
    await Promise.allSettled([...this.inFlight]);
    const members = [...this.members.values()];
    this.members.clear();
    await Promise.allSettled(members.map((m) => m.close()));
  }

  private async waitThenWrite(batches: readonly Batch[]): Promise<void> {
    while (this.members.size === 0) {
      if (this.closed) throw new Error('the broker closed before any output was added');
      await new Promise<void>((resolve) => this.memberWaiters.push(resolve));
    }
    return this.dispatch(batches, [...this.members.values()]);
  }

  /**
   * Fails every unfinished write that went to `member` (taken out of the set and closed, but
   * still holding writes): their upstream acks would otherwise wait forever.
   */
  failPendingWrites(member: Output, err: Error): void {
    for (const pending of this.dispatched) {
      if (!pending.targets.includes(member)) continue;
      this.dispatched.delete(pending);
      pending.reject(err);
    }
  }

  private dispatch(batches: readonly Batch[], targets: Output[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const pending: Dispatched = { targets, reject };
      this.dispatched.add(pending);
      this.writeAll(batches, targets).then(
        () => {
          this.dispatched.delete(pending);
          resolve();
        },
        (err: unknown) => {
          this.dispatched.delete(pending);
          reject(err);
        },
      );
    });
  }

  private async writeAll(batches: readonly Batch[], targets: Output[]): Promise<void> {
    const copy = this.options.copyPerMember !== false;
    if (this.options.sequential) {
      // A member's partial failure stops the sequence before the later members got anything.
      try {
        for (const target of targets) await writeTo(target, sentTo(batches, copy));
      } catch (err) {
        throw wholeFailure(err);
      }
      return;
    }
    return new Promise<void>((resolve, reject) => {
      const outcome = new MemberOutcomes(batches, targets.length, resolve, reject);
      for (let i = 0; i < targets.length; i++) {
        const sent = sentTo(batches, copy);
        writeTo(targets[i]!, sent).then(outcome.delivered, (err: unknown) => outcome.failed(err, sent));
      }
    });
  }
}

/**
 * Settles a parallel fan-out once every member has: a member that failed outright fails the write
 * at once; members that failed some parts (a BatchError or GroupWriteError) fail the union of
 * those parts once all have answered, so the parts every member delivered are not written again.
 */
class MemberOutcomes {
  private left: number;
  private done = false;
  private readonly failedParts = new Set<number>();
  private reason: Error | null = null;

  constructor(
    private readonly batches: readonly Batch[],
    members: number,
    private readonly resolve: () => void,
    private readonly reject: (err: Error) => void,
  ) {
    this.left = members;
  }

  readonly delivered = (): void => {
    if (--this.left === 0) this.finish();
  };

  readonly failed = (err: unknown, sent: readonly Batch[]): void => {
    if (this.done) return;
    const parts = this.batches.length === 1 ? failedMessages(err, sent[0]!) : failedBatches(err, sent);
    if (parts === null) {
      this.done = true;
      this.reject(wholeFailure(err));
      return;
    }
    for (const i of parts) this.failedParts.add(i);
    this.reason ??= wholeFailure(err);
    if (--this.left === 0) this.finish();
  };

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (!this.reason) {
      this.resolve();
      return;
    }
    const failed = [...this.failedParts].sort((a, b) => a - b);
    this.reject(
      this.batches.length === 1
        ? partialError(this.batches[0]!, failed, this.reason)
        : partialGroupError(this.batches, failed, this.reason),
    );
  }
}

/** What one member is given: its own copies unless the member copies itself (so what one member changes does not leak). */
function sentTo(batches: readonly Batch[], copy: boolean): readonly Batch[] {
  if (!copy) return batches;
  return batches.length === 1 ? [copyBatch(batches[0]!)] : batches.map(copyBatch);
}

/** One member's write of a batch or a group. */
function writeTo(target: Output, sent: readonly Batch[]): Promise<void> {
  if (sent.length === 1) return target.write(sent[0]!);
  return writeGroupTo(target, sent);
}
