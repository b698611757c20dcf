// The `nats` output: publishes each message to a core NATS subject. A batch counts as written
// once the server has processed it (a flush round trip); subscribers get it at most once.
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { connectionName, HeaderBuilder, lintNatsConnection } from '../nats/connection.js';
import { NatsPublisherConnection, PUBLISH_DESCRIPTION_TAIL, publishFields } from '../nats/publisher.js';

export class NatsWriter extends NatsPublisherConnection implements OutputWriter {
  async write(batch: Batch): Promise<void> {
    const nc = this.nc;
    if (!nc || nc.isClosed()) throw new NotConnectedError('not connected to NATS');
    try {
      for (let i = 0; i < batch.length; i++) {
        const hdrs = this.headers.build(batch, i);
        // Too large a payload or an invalid subject throws here: the batch is nacked, not dropped.
        nc.publish(
          this.subject.render(batch, i),
          (batch[i] as Message).bytes(),
          hdrs ? { headers: hdrs } : {},
        );
      }
      await nc.flush();
    } catch (err) {
      if (nc.isClosed()) throw new NotConnectedError(`NATS connection lost: ${errorMessage(err)}`);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const nc = this.nc;
    this.nc = null;
    if (nc && !nc.isClosed()) await nc.drain().catch(() => closeQuietly(nc));
  }
}

const fields = publishFields(
  {
    description: 'The subject to publish to.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['foo.bar.baz', 'events.${! @kind }'],
  },
  64,
);

export const spec = defineComponent({
  name: 'nats',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to a core NATS subject.',
  description: `Core NATS is at-most-once: a message is handed to the subscribers connected at that moment and kept nowhere else, so a subscriber that is down misses it. A batch is acknowledged once the server has received it (a flush round trip), not once a subscriber has it. Use \`nats_jetstream\` when messages must be stored.

${PUBLISH_DESCRIPTION_TAIL}`,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Publish to a subject per event type',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"kind": "signup", "id": counter()}'
output:
  nats:
    urls: [ nats://127.0.0.1:4222 ]
    subject: 'events.\${! this.kind }'
    headers:
      Content-Type: application/json
`,
    },
  ],
  build(config, ctx): Output {
    const headers = new HeaderBuilder(config.headers, config.metadata);
    return ctx.wrapWriter(new NatsWriter(config, config.subject, headers, connectionName(ctx)), {
      maxInFlight: config.max_in_flight,
    });
  },
});
