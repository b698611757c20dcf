// The `mqtt` input: subscribes to topics of an MQTT 3.1.1 broker. A QoS 1/2 message is
// acknowledged to the broker (PUBACK / PUBCOMP) only once it was delivered downstream.
import type { IPublishPacket, IStore, MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import {
  closeMqtt,
  dialMqtt,
  lintMqttConnection,
  lintQos,
  loadMqtt,
  mqttConnectionFields,
} from '../mqtt/client.js';
import { DeliveryQueue } from './delivery_queue.js';

type MqttInputConfig = ConfigOf<typeof fields>;

/** An incoming publish and the mqtt.js continuation that sends its PUBACK/PUBCOMP. */
interface Delivery {
  packet: IPublishPacket;
  acknowledge: () => void;
}

interface Subscription {
  client: MqttClient;
  address: string;
  deliveries: DeliveryQueue<Delivery>;
  open: boolean;
}

export function packetToMessage(packet: IPublishPacket): Message {
  const msg = new Message(packet.payload as Buffer);
  msg.setMeta('mqtt_duplicate', packet.dup);
  msg.setMeta('mqtt_qos', packet.qos);
  msg.setMeta('mqtt_retained', packet.retain);
  msg.setMeta('mqtt_topic', packet.topic);
  msg.setMeta('mqtt_message_id', packet.messageId ?? 0);
  return msg;
}

export class MqttReader implements InputReader {
  private subscription: Subscription | null = null;
  private closed = false;
  /**
   * QoS 2 messages are handed over when the broker sends PUBREL; until then mqtt.js keeps them in
   * this store, which outlives a connection (`clean: false`: closing a client keeps its content)
   * so a resumed session can still deliver them.
   */
  private incomingStore: IStore | null = null;

  constructor(
    private readonly config: MqttInputConfig,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    await this.drop();
    const deliveries = new DeliveryQueue<Delivery>();
    // mqtt.js sends the PUBACK (QoS 1) or PUBCOMP (QoS 2) only when handleMessage calls back, and
    // handles no further packet of the connection before that: so the acknowledgement waits for
    // the engine's ack, one QoS 1/2 message at a time. QoS 0 has nothing to acknowledge.
    let heldMessage: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => {
      heldMessage = resolve;
    });
    const handleMessage = (packet: IPublishPacket, callback: (err?: Error) => void) => {
      heldMessage();
      if (packet.qos === 0) {
        deliveries.push({ packet, acknowledge: () => undefined });
        callback();
      } else deliveries.push({ packet, acknowledge: () => callback() });
    };
    this.incomingStore ??= new (await loadMqtt()).Store({ clean: false });
    const { client, address } = await dialMqtt(this.config, {
      clean: this.config.clean_session,
      handleMessage,
      ...(this.config.clean_session ? {} : { incomingStore: this.incomingStore }),
    });
    const subscription: Subscription = { client, address, deliveries, open: true };
    const lost = (why: string) => {
      if (!subscription.open) return;
      subscription.open = false;
      deliveries.fail(new NotConnectedError(`mqtt ${address}: ${why}`));
    };
    client.on('error', (err) => lost(`connection error: ${err.message}`));
    client.on('close', () => lost('connection closed'));
    client.on('offline', () => lost('connection lost'));
    const subscribed = client
      .subscribeAsync(this.config.topics, { qos: this.config.qos as 0 | 1 | 2 })
      .then((granted) => {
        const refused = granted.filter((g) => g.qos === 128).map((g) => g.topic);
        if (refused.length > 0)
          throw new Error(`the broker refused the subscription to ${refused.join(', ')}`);
      })
      .catch((err) => {
        const why = `cannot subscribe: ${errorMessage(err)}`;
        lost(why);
        void closeMqtt(client, true);
        throw new Error(`mqtt ${address}: ${why}`);
      });
    // A resumed session may deliver before the SUBACK, which mqtt.js then only reads once that
    // message is acknowledged: stop waiting for the SUBACK as soon as a message is held.
    await Promise.race([subscribed, firstHeld]);
    subscribed.catch(() => undefined);
    if (this.closed) {
      subscription.open = false;
      await closeMqtt(client);
      return;
    }
    this.subscription = subscription;
  }

  async read(): Promise<Transaction | null> {
    const subscription = this.subscription;
    if (!subscription) {
      if (this.closed) return null;
      throw new NotConnectedError('mqtt: not connected');
    }
    const delivery = await subscription.deliveries.next();
    if (delivery === null) return null;
    return {
      batch: [packetToMessage(delivery.packet)],
      ack: async (err) => this.settle(subscription, delivery, err),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drop();
  }

  private settle(subscription: Subscription, delivery: Delivery, err: Error | null): void {
    if (!subscription.open) {
      // Unacknowledged on a connection that is gone: a persistent session (clean_session: false)
      // gets it again; a clean session loses it, as MQTT defines.
      this.logger.debug('mqtt: connection gone before the message was acknowledged');
      return;
    }
    if (!err) {
      delivery.acknowledge();
      return;
    }
    if (delivery.packet.qos === 0) {
      this.logger.warn(`mqtt: a QoS 0 message failed and cannot be redelivered: ${err.message}`);
      return;
    }
    // MQTT has no negative acknowledgement: drop the connection without acknowledging, so the
    // broker sends the message again when the session resumes. Politely (DISCONNECT after the
    // socket's pending writes): a forced close could discard the PUBACKs of earlier messages
    // still being written, and the broker would redeliver those too.
    this.logger.warn(`mqtt: delivery failed, reconnecting for a redelivery: ${err.message}`);
    subscription.open = false;
    subscription.deliveries.fail(new NotConnectedError(`mqtt ${subscription.address}: message nacked`));
    void closeMqtt(subscription.client);
  }

  private async drop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    if (!subscription) return;
    subscription.open = false;
    subscription.deliveries.end();
    await closeMqtt(subscription.client);
  }
}

const a = { advanced: true };

const fields = [
  ...mqttConnectionFields(),
  field.array(
    field.string('topics', 'Topics (with `+` and `#` wildcards) to subscribe to.', {
      examples: [['sensors/+/temperature', 'alerts/#']],
    }),
  ),
  field.int('qos', 'The QoS to subscribe with: 0, 1 or 2.', { default: 1, ...a }),
  field.bool('clean_session', 'Start a clean session; false resumes the session of `client_id`.', {
    default: true,
    ...a,
  }),
  field.bool('auto_replay_nacks', 'Retry a message whose delivery failed until it succeeds.', {
    default: true,
  }),
] as const;

export const spec = defineComponent({
  name: 'mqtt',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Subscribes to topics of an MQTT 3.1.1 broker.',
  description:
    'A QoS 1 or 2 message is acknowledged to the broker (PUBACK / PUBCOMP) only after it was delivered downstream. mqtt.js processes the packets of a connection in order, so QoS 1/2 messages are delivered one at a time, and one delivery must finish within about 1.5 × `keepalive` (pings wait behind it) or the connection is reset and the message redelivered.\n\n' +
    'With `auto_replay_nacks` (the default) a failed message is retried inside nekton until it is delivered. Without it, a failed QoS 1/2 message drops the connection unacknowledged; with `clean_session: false` and a fixed `client_id` the broker then redelivers it (with `mqtt_duplicate` set). A clean session forgets unacknowledged messages when the connection goes, as MQTT defines.\n\n' +
    'Metadata: `mqtt_topic`, `mqtt_qos`, `mqtt_retained`, `mqtt_duplicate`, `mqtt_message_id` (0 for QoS 0).',
  fields,
  lint: (config) => [
    ...lintMqttConnection(config),
    ...(config.topics.length === 0 ? ['mqtt: topics must name at least one topic'] : []),
    ...lintQos(config.qos),
  ],
  examples: [
    {
      title: 'A persistent session: nothing published while nekton is down is lost',
      config: `input:
  mqtt:
    urls: [ tcp://127.0.0.1:1883 ]
    topics: [ sensors/+/temperature ]
    client_id: nekton-sensors
    clean_session: false
    qos: 1
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new MqttReader(config, ctx.logger), {
      autoReplayNacks: config.auto_replay_nacks,
    });
  },
});
