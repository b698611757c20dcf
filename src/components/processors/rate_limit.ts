// `rate_limit`: holds each message until a shared rate limit resource lets it through.
import { defineComponent, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { requireResource } from '../../engine/processor_helpers.js';
import { anySignal, stopController } from '../../engine/stop_signal.js';

/** How long to wait before asking again when the rate limit itself fails. */
const ERROR_WAIT_MS = 1000;

export const spec = defineComponent({
  name: 'rate_limit',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Throttles a pipeline: each message waits until the named rate limit resource grants access. Rate limits are shared, so the limit applies across every component that uses it.',
  description:
    'Each message of a batch waits for one access in turn. When the rate limit resource itself fails, the error is logged and the access asked for again after a second. Stopping the stream ends the wait and fails the batch, so it is redelivered.',
  fields: [field.string('resource', 'The name of the rate limit resource.')],
  examples: [
    {
      title: 'At most 10 messages per second',
      config: `input:
  generate:
    count: 30
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - rate_limit:
        resource: ten_per_second
output:
  stdout: {}
rate_limit_resources:
  - label: ten_per_second
    local:
      count: 10
      interval: 1s
`,
    },
  ],
  build: (config, ctx): Processor => {
    requireResource(ctx, 'rate_limit', config.resource);
    const stopped = stopController();
    const signal = anySignal([stopped.signal, ctx.signal]);

    /** Resolves once one access is granted; throws when the processor stops first. */
    const acquire = async (): Promise<void> => {
      for (;;) {
        let waitMs: number;
        try {
          waitMs = await ctx.resources.useRateLimit(config.resource, (limit) => limit.access());
        } catch (err) {
          ctx.logger.error(`failed to access rate limit: ${errorMessage(err)}`);
          waitMs = ERROR_WAIT_MS;
        }
        if (waitMs <= 0) return;
        if (!(await sleep(waitMs, signal))) throw new Error('processor stopped');
      }
    };

    return {
      async process(batch) {
        for (let i = 0; i < batch.length; i++) await acquire();
        return [batch];
      },
      close: async () => stopped.abort(),
    };
  },
});
