// `sleep`: waits a (possibly per-message) duration for each message of a batch.
import { defineComponent, durationMs, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { anySignal, stopController } from '../../engine/stop_signal.js';
import type { Batch } from '../../message/message.js';

export const spec = defineComponent({
  name: 'sleep',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Sleeps for a duration for each message of a batch, then passes the batch on unchanged.',
  description:
    'The duration is interpolated per message, so each can set its own delay. A message whose duration cannot be read is logged and not waited for. Stopping the stream ends a sleep early and fails the batch.',
  fields: [
    field.interpolated('duration', 'How long to sleep for each message, as a duration string.', {
      check: 'duration',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
      examples: ['1s', '${! @delay }'],
    }),
  ],
  examples: [
    {
      title: 'Slow a stream down to one message per second',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = counter()'
pipeline:
  processors:
    - sleep:
        duration: 1s
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Processor => {
    const duration = config.duration;
    // A static duration is parsed once; a bad one is a config error rather than a silent no-op.
    const staticMs = duration.isStatic ? durationMs(duration.render([], 0), 'duration') : null;
    const stopped = stopController();
    const signal = anySignal([stopped.signal, ctx.signal]);

    const totalMs = (batch: Batch): number => {
      if (staticMs !== null) return staticMs * batch.length;
      let total = 0;
      for (let i = 0; i < batch.length; i++) {
        try {
          total += durationMs(duration.render(batch, i), 'duration');
        } catch (err) {
          ctx.logger.error(`sleep: ${errorMessage(err)}`);
        }
      }
      return total;
    };

    return {
      async process(batch) {
        const ms = totalMs(batch);
        if (ms > 0 && !(await sleep(ms, signal))) throw new Error('processor stopped');
        return [batch];
      },
      close: async () => stopped.abort(),
    };
  },
});
