// `for_each` and `try`: the child processors run on each message as a batch of its own (a lane);
// `try` also stops a lane once a step flags its message, `for_each` never does.
import type { Processor } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';
import { closeAll, drive, type LaneFilter, perMessageLanes, type Steps } from './stepwise.js';

export class LanesProcessor implements Processor {
  constructor(
    private readonly children: Processor[],
    /** Whether a lane goes on to the next step; null: every lane runs every step. */
    private readonly runs: LaneFilter | null,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    const out = yield* perMessageLanes(this.children, batch, this.runs);
    return out.length > 0 ? [out] : [];
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}
