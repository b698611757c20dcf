// The `nats_jetstream` output: publishes each message to a JetStream subject and counts it as
// written only once the stream has stored it (the publish ack).
import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { defineComponent } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { connectionName, HeaderBuilder, lintNatsConnection } from '../nats/connection.js';
import { nats } from '../nats/library.js';
import { NatsPublisherConnection, PUBLISH_DESCRIPTION_TAIL, publishFields } from '../nats/publisher.js';

export class NatsJetStreamWriter extends NatsPublisherConnection implements OutputWriter {
  private js: JetStreamClient | null = null;

  protected override connected(nc: NatsConnection): void {
    this.js = nats().jetstream.jetstream(nc);
  }

  async write(batch: Batch): Promise<void> {
    const nc = this.nc;
    const js = this.js;
    if (!nc || !js || nc.isClosed()) throw new NotConnectedError('not connected to NATS');
    const publishes: Promise<unknown>[] = [];
    const subjects: string[] = [];
    try {
      for (let i = 0; i < batch.length; i++) {
        const hdrs = this.headers.build(batch, i);
        const subject = this.subject.render(batch, i);
        subjects.push(subject);
        publishes.push(js.publish(subject, (batch[i] as Message).bytes(), hdrs ? { headers: hdrs } : {}));
      }
    } catch (err) {
      for (const p of publishes) p.catch(() => undefined);
      throw err;
    }
    // Every message must be stored; the first refusal (no stream for the subject, limits) fails the batch.
    const results = await Promise.allSettled(publishes);
    const at = results.findIndex((r) => r.status === 'rejected');
    if (at < 0) return;
    const reason = (results[at] as PromiseRejectedResult).reason;
    if (nc.isClosed()) throw new NotConnectedError(`NATS connection lost: ${errorMessage(reason)}`);
    throw new Error(`JetStream publish failed: ${publishFailure(reason, subjects[at]!)}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    const nc = this.nc;
    this.nc = null;
    this.js = null;
    await closeQuietly(nc);
  }
}

/**
 * The client reports a publish nobody answered as "jetstream is not enabled"; on a server with
 * JetStream it means no stream captures the subject, which is what the user has to fix.
 */
function publishFailure(reason: unknown, subject: string): string {
  const text = errorMessage(reason);
  if (!/jetstream is not enabled/i.test(text)) return text;
  return `no stream captures subject '${subject}' (the server had no responder for it: create a stream for the subject, or enable JetStream)`;
}

const fields = publishFields(
  {
    description: 'A subject to write to.',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['foo.bar.baz', '${! meta("kafka_topic") }', 'foo.${! json("meta.type") }'],
  },
  1024,
);

export const spec = defineComponent({
  name: 'nats_jetstream',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to a NATS JetStream subject, waiting for the stream to store each one.',
  description: `A message counts as delivered once JetStream acknowledges the publish, i.e. the stream stored it. A refused publish (no stream captures the subject, a limit was hit, a timeout) fails the batch, so the input nacks it or it is retried, never silently dropped.

${PUBLISH_DESCRIPTION_TAIL}`,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Store events in a stream, one subject per type',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"type": "created", "id": counter()}'
output:
  nats_jetstream:
    urls: [ nats://127.0.0.1:4222 ]
    subject: 'orders.\${! this.type }'
    headers:
      Nats-Msg-Id: '\${! this.id }'
    max_in_flight: 64
`,
    },
  ],
  build(config, ctx): Output {
    const headers = new HeaderBuilder(config.headers, config.metadata);
    return ctx.wrapWriter(new NatsJetStreamWriter(config, config.subject, headers, connectionName(ctx)), {
      maxInFlight: config.max_in_flight,
    });
  },
});
