// The `mqtt` output: publishes each message to an (interpolated) topic of an MQTT 3.1.1 broker;
// with QoS 1/2 a batch counts as written once the broker acknowledged every message of it.
import type { MqttClient } from 'mqtt';
import type { Interpolation } from '../../bloblang/index.js';
import { formatDuration } from '../../config/duration.js';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch, Message } from '../../message/message.js';
import { closeMqtt, dialMqtt, lintMqttConnection, lintQos, mqttConnectionFields } from '../mqtt/client.js';

type MqttOutputConfig = ConfigOf<typeof fields>;

interface Publisher {
  client: MqttClient;
  address: string;
  open: boolean;
  lostReason: string;
  /** Rejects the writes waiting on this connection when it goes. */
  onLost: Set<(err: NotConnectedError) => void>;
}

/** The longest topic MQTT can carry: its length is a two-byte prefix. */
const MAX_TOPIC_BYTES = 65_535;

/** Why a topic can never be published to (MQTT 3.1.1 section 4.7), or null when it can. */
export function unpublishableTopic(topic: string): string | null {
  if (topic === '') return 'the topic is empty';
  if (topic.includes('#') || topic.includes('+'))
    return `the topic ${JSON.stringify(topic.slice(0, 100))} holds a wildcard (# or +)`;
  if (topic.includes('\u0000')) return 'the topic holds a NUL character';
  const bytes = Buffer.byteLength(topic);
  if (bytes > MAX_TOPIC_BYTES) return `the topic is ${bytes} bytes long, over MQTT's ${MAX_TOPIC_BYTES}`;
  return null;
}

export class MqttWriter implements OutputWriter {
  private publisher: Publisher | null = null;

  constructor(
    private readonly config: MqttOutputConfig,
    private readonly topic: Interpolation,
    private readonly retained: Interpolation | null,
  ) {}

  /** Set by close(): a connect() still dialling then hangs up instead of keeping the link. */
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  async connect(): Promise<void> {
    await this.drop();
    const { client, address } = await dialMqtt(this.config, { clean: true });
    const publisher: Publisher = { client, address, open: true, lostReason: '', onLost: new Set() };
    const lost = (why: string) => {
      if (!publisher.open) return;
      publisher.open = false;
      publisher.lostReason = why;
      const err = new NotConnectedError(`mqtt ${address}: ${why}`);
      for (const reject of publisher.onLost) reject(err);
      // An idle output learns of it only here: tell the engine (/ready, reconnect).
      if (this.publisher === publisher && !this.closed) this.lost.report(err);
    };
    client.on('error', (err) => lost(`connection error: ${err.message}`));
    client.on('close', () => lost('connection closed'));
    client.on('offline', () => lost('connection lost'));
    if (this.closed) {
      publisher.open = false;
      await closeMqtt(client);
      return;
    }
    this.publisher = publisher;
  }

  async write(batch: Batch): Promise<void> {
    const publisher = this.publisher;
    if (!publisher?.open) throw this.notConnected(publisher);
    const qos = this.config.qos as 0 | 1 | 2;
    // Render everything first: a bad value fails the batch before anything is published.
    const packets = batch.map((msg, i) => ({
      topic: this.topic.render(batch, i),
      payload: Buffer.from((msg as Message).bytes()),
      retain: this.retained ? this.retained.render(batch, i) === 'true' : this.config.retained,
    }));
    for (let i = 0; i < packets.length; i++) {
      const why = unpublishableTopic(packets[i]!.topic);
      // Not a connection fault: reconnecting would not help (the broker drops a client that
      // publishes such a topic), so the write fails and the connection stays up for the next.
      if (why) throw new Error(`mqtt: message ${i} cannot be published: ${why}`);
    }
    const sends = packets.map((p) =>
      publisher.client.publishAsync(p.topic, p.payload, { qos, retain: p.retain }),
    );
    let timer: NodeJS.Timeout | undefined;
    let onLost: ((err: NotConnectedError) => void) | undefined;
    const failed = new Promise<never>((_, reject) => {
      onLost = reject;
      publisher.onLost.add(reject);
      if (this.config.write_timeout > 0)
        timer = setTimeout(
          () =>
            reject(
              publisher.open
                ? new Error(
                    `mqtt ${publisher.address}: publish not acknowledged within ${formatDuration(this.config.write_timeout * 1e6)}`,
                  )
                : this.notConnected(publisher),
            ),
          this.config.write_timeout,
        );
    });
    try {
      await Promise.race([Promise.all(sends), failed]);
    } catch (err) {
      if (err instanceof NotConnectedError || !publisher.open) throw this.notConnected(publisher);
      throw err instanceof Error ? err : new Error(errorMessage(err));
    } finally {
      clearTimeout(timer);
      if (onLost) publisher.onLost.delete(onLost);
      for (const s of sends) s.catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private notConnected(publisher: Publisher | null): NotConnectedError {
    if (!publisher) return new NotConnectedError('mqtt: not connected');
    return new NotConnectedError(`mqtt ${publisher.address}: ${publisher.lostReason || 'not connected'}`);
  }

  private async drop(): Promise<void> {
    const publisher = this.publisher;
    this.publisher = null;
    if (!publisher) return;
    publisher.open = false;
    await closeMqtt(publisher.client);
  }
}

const fields = [
  ...mqttConnectionFields(),
  field.interpolated('topic', 'The topic to publish each message to.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
    examples: ['sensors/${! json("id") }/temperature'],
  }),
  field.int('qos', 'The QoS to publish with: 0, 1 or 2.', { default: 1 }),
  field.duration('write_timeout', 'How long to wait for the broker to acknowledge a batch.', {
    default: '3s',
    examples: ['1s', '500ms'],
  }),
  field.bool('retained', 'Publish retained messages.', { default: false }),
  field.interpolated(
    'retained_interpolated',
    'Per message `retained` flag (`true`/`false`); overrides `retained`.',
    {
      optional: true,
      advanced: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['${! @retain.or("false") }'],
    },
  ),
  field.int('max_in_flight', 'The most batches being published at once.', { default: 64 }),
] as const;

export const spec = defineComponent({
  name: 'mqtt',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Publishes messages to topics of an MQTT 3.1.1 broker.',
  description:
    'With QoS 1 or 2 a batch is written once the broker acknowledged every message (PUBACK / PUBCOMP); QoS 0 is fire-and-forget. A write not acknowledged within `write_timeout` fails, so the input nacks it or a `retry`/`fallback` takes over; a lost connection is re-established with backoff and the batch published again. A topic MQTT cannot carry (empty, holding `#`, `+` or NUL, or over 65,535 bytes) fails its batch before anything is sent, without touching the connection.',
  fields,
  lint: (config) => [...lintMqttConnection(config), ...lintQos(config.qos)],
  examples: [
    {
      title: 'Publish readings to a topic per device',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "dev-" + counter().string(), "celsius": 21.5}'
output:
  mqtt:
    urls: [ tcp://127.0.0.1:1883 ]
    topic: 'sensors/\${! json("id") }/temperature'
    qos: 1
`,
    },
  ],
  build(config, ctx): Output {
    const retained = config.retained_interpolated;
    // An empty `retained_interpolated` is unset: `retained` applies.
    const perMessage = retained && !(retained.isStatic && retained.render([], 0) === '') ? retained : null;
    return ctx.wrapWriter(new MqttWriter(config, config.topic, perMessage), {
      maxInFlight: config.max_in_flight,
    });
  },
});
