// Input and output resources as one stream sees them: what the stream read from or wrote to the
// shared resource counted under the stream (`input_received`, `output_sent`, `output_batch_sent`,
// `output_error` with label = the resource, path `root.input_resources`/`root.output_resources`).
import type { Input, Output } from '../engine/component.js';
import type { MetricsScope } from '../engine/context.js';

export function observedResourceInput(input: Input, metrics: MetricsScope): Input {
  const received = metrics.counter('input_received');
  return {
    async read() {
      const txn = await input.read();
      if (txn) received.inc(txn.batch.length);
      return txn;
    },
    statuses: () => input.statuses(),
    close: () => input.close(),
    onExhausted: input.onExhausted ? (listener) => input.onExhausted?.(listener) : undefined,
  };
}

export function observedResourceOutput(output: Output, metrics: MetricsScope): Output {
  const sent = metrics.counter('output_sent');
  const batchSent = metrics.counter('output_batch_sent');
  const errors = metrics.counter('output_error');
  const count = async (batches: readonly (readonly unknown[])[], write: Promise<void>) => {
    try {
      await write;
    } catch (err) {
      for (const batch of batches) errors.inc(batch.length);
      throw err;
    }
    for (const batch of batches) sent.inc(batch.length);
    batchSent.inc(batches.length);
  };
  return {
    write: (batch) => count([batch], output.write(batch)),
    writeGroup: output.writeGroup
      ? (batches) => count(batches, output.writeGroup?.(batches) ?? Promise.resolve())
      : undefined,
    statuses: () => output.statuses(),
    flush: output.flush ? () => output.flush?.() ?? Promise.resolve() : undefined,
    close: () => output.close(),
  };
}
