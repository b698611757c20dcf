// `retry` processor: runs child processors on each message (alone) until none of the results is
// errored, starting each attempt from the message as it arrived, with a backoff between attempts.
import type { Logger } from 'pino';
import { formatDuration } from '../../config/duration.js';
import { defineComponent, field } from '../../config/spec.js';
import { Backoff, type BackoffConfig, sleep } from '../../engine/backoff.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { backoffField } from '../fields/backoff.js';
import { buildChildren, closeAll, runChildren } from './stepwise.js';

const NO_CHILDREN = 'at least one child processor must be specified';

export class RetryProcessor implements Processor {
  constructor(
    private readonly children: Processor[],
    private readonly backoff: BackoffConfig,
    private readonly maxRetries: number,
    private readonly parallel: boolean,
    private readonly signal: AbortSignal,
    private readonly logger: Logger,
  ) {}

  async process(batch: Batch): Promise<Batch[]> {
    const results: Batch[][] = this.parallel ? await Promise.all(batch.map((m) => this.dispatch(m))) : [];
    if (!this.parallel) for (const m of batch) results.push(await this.dispatch(m));
    const out: Batch = [];
    for (const batches of results) for (const b of batches) for (const m of b) out.push(m);
    return [out];
  }

  private async dispatch(original: Message): Promise<Batch[]> {
    const backoff = new Backoff(this.backoff);
    let retries = 0;
    let waitedMs = 0;
    // An error the message carries in is cleared, so it cannot loop for ever on an old failure.
    const start = original.copy();
    start.error = null;
    for (;;) {
      const results = await runChildren(this.children, [start.copy()]);
      const failed = results.find((b) => b.some((m) => m.error !== null));
      let done = failed === undefined;
      if (!done) {
        retries++;
        if (retries === this.maxRetries) {
          this.logger.debug('Error occurred and maximum number of retries was reached.');
          done = true;
        } else {
          const wait = backoff.next();
          if (wait === null) {
            this.logger.debug('Error occurred and maximum wait period was reached.');
            done = true;
          } else {
            waitedMs += wait;
            this.logger.debug(`Error occurred, sleeping for next backoff period of ${wait}ms.`);
            if (!(await sleep(wait, this.signal))) throw new Error('context canceled');
          }
        }
      }
      if (done) {
        for (const b of results)
          for (const m of b) {
            m.setMeta('retry_count', retries);
            m.setMeta('backoff_duration', formatDuration(waitedMs * 1_000_000));
          }
        return results;
      }
    }
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }
}

export const spec = defineComponent({
  name: 'retry',
  kind: 'processor',
  status: 'beta',
  categories: ['Composition'],
  summary: 'Attempts to execute a series of child processors until success.',
  description: `Executes child processors and if a resulting message is errored then, after a specified backoff period, the same original message will be attempted again through those same processors. If the child processors result in more than one message then the retry mechanism will kick in if _any_ of the resulting messages are errored.

Any mutations performed on the message during these child processors are discarded for the next retry: each execution of the child processors starts from the data as it was when it first reached the retry processor.

When \`max_retries\` or the backoff's \`max_elapsed_time\` is reached and an error still occurs, the errored messages proceed to the next processor after the retry (or your outputs), where the normal error handling patterns apply. In order to avoid permanent loops any error associated with messages as they first enter a retry processor is cleared. When the stream stops during a backoff wait, the batch fails (its messages are flagged) and the input redelivers it.

## Metadata

This processor adds the following metadata fields to each message:

\`\`\`text
- retry_count - The number of retry attempts.
- backoff_duration - The total time elapsed while performing retries (a Go duration string such as 1.5s).
\`\`\`

## Batching

When messages are batched the child processors of a \`retry\` are executed for each individual message in isolation, performed serially by default but in parallel when \`parallel\` is \`true\`. To retry batch-aware processing, collapse the batch into one message with an \`archive\` processor first and expand it afterwards with \`unarchive\`.`,
  fields: [
    backoffField({ initial_interval: '500ms', max_interval: '10s', max_elapsed_time: '1m' }),
    field.array(
      field.component('processor', 'processors', 'A list of processors to execute on each message.'),
    ),
    field.bool(
      'parallel',
      'When processing batches of messages these batches are ignored and the processors apply to each message sequentially. However, when this field is set to `true` each message will be processed in parallel. Caution should be made to ensure that batch sizes do not surpass a point where this would cause resource (CPU, memory, API limits) contention.',
      { default: false },
    ),
    field.int(
      'max_retries',
      'The maximum number of retry attempts before the request is aborted. Setting this value to `0` will result in unbounded number of retries.',
      { default: 0 },
    ),
  ],
  examples: [
    {
      title: 'Retry a flaky step',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root.noise = ["woof", "meow", "moo"].index(counter() - 1)'
pipeline:
  processors:
    - retry:
        max_retries: 3
        backoff:
          initial_interval: 10ms
          max_interval: 100ms
        processors:
          - mapping: 'root = if random_int(max: 1) == 0 { throw("flaky") } else { this }'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (config.processors.length === 0 ? [NO_CHILDREN] : []),
  build: async (config, ctx): Promise<Processor> => {
    if (config.processors.length === 0) throw new ConfigError(NO_CHILDREN);
    return new RetryProcessor(
      await buildChildren(config.processors, ctx),
      config.backoff,
      config.max_retries,
      config.parallel,
      ctx.signal,
      ctx.logger,
    );
  },
});
