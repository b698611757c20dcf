// Outputs for component tests that record how they were called: one write per batch, or one group
// write for several batches.
import type { ConnectionStatus, Output } from '../../src/engine/component.js';
import type { Batch } from '../../src/message/message.js';

/** A batch's texts joined with `+`. */
export const batchText = (b: Batch): string => b.map((m) => m.text()).join('+');

/** An output with no group write: each call is recorded as `[text of its batch]`. */
export class CallRecorder implements Output {
  readonly calls: string[][] = [];
  closed = false;
  async write(batch: Batch): Promise<void> {
    this.calls.push([batchText(batch)]);
  }
  statuses(): ConnectionStatus[] {
    return [];
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** With a group write too (a call records the text of each of its batches), optionally held until release(). */
export class GroupCallRecorder extends CallRecorder {
  release?: () => void;
  constructor(private readonly hold = false) {
    super();
  }
  async writeGroup(batches: readonly Batch[]): Promise<void> {
    if (this.hold) await new Promise<void>((resolve) => (this.release = resolve));
    this.calls.push(batches.map(batchText));
  }
}
