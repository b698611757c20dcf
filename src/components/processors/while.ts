// `while`: runs processors over a batch again and again for as long as a check passes.
import type { Logger } from 'pino';
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import type { Batch } from '../../message/message.js';
import { checkPasses } from './check.js';
import { buildChildren, closeAll, drive, runChildren, type Steps } from './stepwise.js';

/** How many synchronous loops run before giving the event loop a turn (so close() can land). */
const LOOPS_PER_TURN = 1024;

export class WhileProcessor implements Processor {
  private closed = false;

  constructor(
    private readonly check: Mapping,
    private readonly children: Processor[],
    private readonly atLeastOnce: boolean,
    /** 0 = no limit. */
    private readonly maxLoops: number,
    private readonly logger: Logger,
  ) {}

  process(batch: Batch): Batch[] | Promise<Batch[]> {
    return drive(this.steps(batch));
  }

  private *steps(batch: Batch): Steps<Batch[]> {
    let batches: Batch[] = [batch];
    let loops = 0;
    let again = this.atLeastOnce || this.passes(batch);
    while (again) {
      if (this.closed) throw new Error('processor closed');
      if (this.maxLoops > 0 && loops >= this.maxLoops) break;
      if (loops > 0 && loops % LOOPS_PER_TURN === 0) yield nextTurn();
      const next: Batch[] = [];
      for (const b of batches) for (const out of yield runChildren(this.children, b)) next.push(out);
      batches = next;
      if (batches.length === 0) return [];
      // With several batches, as in the reference, only the first decides.
      again = this.passes(batches[0]!);
      loops++;
    }
    return batches;
  }

  /** The check for the first message of the batch; a failing check ends the loop. */
  private passes(batch: Batch): boolean {
    try {
      return checkPasses(this.check, batch, 0);
    } catch (err) {
      this.logger.error(`query failed for loop: ${errorMessage(err)}`);
      return false;
    }
  }

  close(): Promise<void> {
    this.closed = true;
    return closeAll(this.children);
  }
}

function nextTurn(): Promise<Batch[]> {
  return new Promise((resolve) => setImmediate(() => resolve([])));
}

export const spec = defineComponent({
  name: 'while',
  kind: 'processor',
  status: 'stable',
  categories: ['Composition'],
  summary: 'Runs a list of processors over a batch for as long as a Bloblang check passes.',
  description: `The check runs against the first message of the batch before each loop. With \`at_least_once\` the processors run once before the first check, like a do-while loop. \`max_loops\` (when above zero) caps the number of loops.

When the processors leave no messages the loop ends whatever the check says. When they produce several batches only the first one is checked. A check that fails (or does not give a boolean) ends the loop.`,
  fields: [
    field.bool('at_least_once', 'Whether the processors always run once before the check is first tested.', {
      default: false,
    }),
    field.int(
      'max_loops',
      'The most loops to run for a batch; 0 has no limit. Guards against endless loops.',
      {
        default: 0,
        advanced: true,
      },
    ),
    field.mapping('check', 'A Bloblang query returning a boolean: whether to loop (again).', {
      default: '',
      bloblang: true,
      examples: ['errored()', 'this.urls.unprocessed.length() > 0'],
    }),
    field.array(field.component('processor', 'processors', 'The processors to run on each loop.')),
  ],
  examples: [
    {
      title: 'Count up to a limit',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"n": 0}'
pipeline:
  processors:
    - while:
        check: 'this.n < 5'
        max_loops: 100
        processors:
          - mapping: 'root.n = this.n + 1'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.check === '' ? ['a check query is required'] : []),
  build: async (config, ctx): Promise<Processor> => {
    // lint refuses an empty check before any build
    if (!config.check) throw new ConfigError('a check query is required');
    return new WhileProcessor(
      config.check,
      await buildChildren(config.processors, ctx),
      config.at_least_once,
      config.max_loops,
      ctx.logger,
    );
  },
});
