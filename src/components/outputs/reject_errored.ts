// The `reject_errored` output: messages that failed processing are nacked, the rest go to a child output.
import { defineRootComponent, field } from '../../config/spec.js';
import { BatchError, failedMessages } from '../../engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import type { Batch } from '../../message/message.js';

function rejection(err: Error): Error {
  return new Error(`rejecting due to failed processing: ${err.message}`, { cause: err });
}

export class RejectErroredOutput implements Output {
  constructor(private readonly inner: Output) {}

  async write(batch: Batch): Promise<void> {
    const rejected: number[] = [];
    for (let i = 0; i < batch.length; i++) if (batch[i]!.error) rejected.push(i);
    if (rejected.length === 0) return this.inner.write(batch);
    const first = rejection(batch[rejected[0]!]!.error as Error);
    if (rejected.length === batch.length) {
      throw batch.length === 1 ? first : new BatchError(batch, rejected, first);
    }
    // A mixed batch: the clean messages go on; the input learns which ones were rejected, plus any
    // of the forwarded ones the child failed to deliver.
    const forwardIdx: number[] = [];
    for (let i = 0; i < batch.length; i++) if (!batch[i]!.error) forwardIdx.push(i);
    const forward = forwardIdx.map((i) => batch[i]!);
    let failed = rejected;
    let reason = first;
    try {
      await this.inner.write(forward);
    } catch (err) {
      const narrowed = failedMessages(err, forward);
      const lost = narrowed ? narrowed.map((i) => forwardIdx[i]!) : forwardIdx;
      failed = [...rejected, ...lost].sort((a, b) => a - b);
      if (lost.length > 0 && err instanceof Error) reason = err instanceof BatchError ? err.reason : err;
    }
    throw failed.length >= batch.length ? reason : new BatchError(batch, failed, reason);
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async flush(): Promise<void> {
    await this.inner.flush?.();
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}

export const spec = defineRootComponent({
  name: 'reject_errored',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Rejects messages that failed their processing steps, so the input nacks them; sends the others to a child output.',
  description: `Where a rejected message goes depends on its input: inputs that can nack upstream (AMQP, NATS) nack it; sequential inputs such as files redeliver it, so it is processed again from scratch. In a batch with both kinds, the clean messages are written to the child and only the failed ones are reported back as failed.

Inside a \`fallback\` output it sends failed messages straight to the next output, a dead letter queue.`,
  root: field.component('output', '', 'The child output for messages that did not fail.'),
  examples: [
    {
      title: 'Dead-letter messages whose processing failed',
      config: `input:
  stdin: {}
pipeline:
  processors:
    - mutation: 'root.age = this.fuzzy.age.int64()'
output:
  fallback:
    - reject_errored:
        stdout: {}
    - file:
        path: /tmp/nekton-dead-letters.jsonl
        codec: lines
`,
    },
  ],
  build: async (config, ctx): Promise<Output> => new RejectErroredOutput(await ctx.buildOutput(config)),
});
