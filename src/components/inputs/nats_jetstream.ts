// The `nats_jetstream` input: reads a stream through a pull consumer (durable, shared by name,
// or ephemeral), acks each message after delivery and naks it on failure so the server redelivers.
import type {
  ConsumerConfig,
  ConsumerMessages,
  DeliverPolicy,
  JetStreamManager,
  JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import {
  connectionName,
  connectNats,
  headersToMetadata,
  lintNatsConnection,
  maxReconnectsField,
  securityFields,
  tracingMapField,
  urlsField,
} from '../nats/connection.js';
import { nats } from '../nats/library.js';

type NatsJetStreamInputConfig = ConfigOf<typeof fields>;

/** The reference's `deliver` values as the client's policies (read after connect: the client loads then). */
function deliverPolicy(deliver: string): DeliverPolicy {
  const { DeliverPolicy: Policy } = nats().jetstream;
  const policies: Record<string, DeliverPolicy> = {
    all: Policy.All,
    last: Policy.Last,
    last_per_subject: Policy.LastPerSubject,
    new: Policy.New,
  };
  return policies[deliver.toLowerCase()] ?? Policy.All;
}

// An unnamed consumer disappears this long after its last reader went away.
const EPHEMERAL_INACTIVE_MS = 5 * 60_000;

function isNotFound(err: unknown): boolean {
  return /not found/i.test(errorMessage(err));
}

export class NatsJetStreamReader implements InputReader {
  private nc: NatsConnection | null = null;
  private messages: ConsumerMessages | null = null;
  private iterator: AsyncIterator<JsMsg> | null = null;
  private closed = false;
  constructor(
    private readonly config: NatsJetStreamInputConfig,
    private readonly name: string,
  ) {}

  async connect(): Promise<void> {
    const nc = await connectNats(this.config, this.name);
    try {
      const jsm = await nats().jetstream.jetstreamManager(nc);
      const stream = await this.resolveStream(jsm);
      const consumerName = await this.resolveConsumer(jsm, stream);
      const consumer = await nats().jetstream.jetstream(nc).consumers.get(stream, consumerName);
      // The client pulls ahead at most this many messages; the server bounds the rest by max_ack_pending.
      const prefetch = Math.max(1, Math.min(this.config.max_ack_pending, 256));
      this.messages = await consumer.consume({ max_messages: prefetch });
      this.iterator = this.messages[Symbol.asyncIterator]();
      this.nc = nc;
      if (this.closed) await this.release();
    } catch (err) {
      await closeQuietly(nc);
      throw new Error(`NATS JetStream at ${nc.getServer()}: ${errorMessage(err)}`);
    }
  }

  async read(): Promise<Transaction | null> {
    const iterator = this.iterator;
    if (this.closed) return null;
    if (!iterator) throw new NotConnectedError('not connected to NATS JetStream');
    let next: IteratorResult<JsMsg>;
    try {
      next = await iterator.next();
    } catch (err) {
      if (this.closed) return null;
      throw new NotConnectedError(`JetStream consumer stopped: ${errorMessage(err)}`);
    }
    if (next.done) {
      if (this.closed) return null;
      const server = this.nc?.getServer() ?? 'NATS';
      await this.release();
      throw new NotConnectedError(`JetStream consumer on ${server} stopped (connection lost)`);
    }
    return this.transaction(next.value);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.release();
  }

  private async release(): Promise<void> {
    const messages = this.messages;
    const nc = this.nc;
    this.messages = null;
    this.iterator = null;
    this.nc = null;
    messages?.stop();
    await closeQuietly(nc);
  }

  private transaction(m: JsMsg): Transaction {
    const message = new Message(m.data);
    const info = m.info;
    message.setMeta('nats_subject', m.subject);
    message.setMeta('nats_sequence_stream', info.streamSequence);
    message.setMeta('nats_sequence_consumer', info.deliverySequence);
    message.setMeta('nats_num_delivered', info.deliveryCount);
    message.setMeta('nats_num_pending', info.pending);
    message.setMeta('nats_domain', info.domain);
    message.setMeta('nats_timestamp_unix_nano', Number(m.timestampNanos));
    headersToMetadata(message, m.headers);
    return {
      batch: [message],
      ack: async (err) => {
        // Both are fire-and-forget: a lost ack or nak ends in a redelivery after ack_wait.
        if (err === null) m.ack();
        else m.nak();
      },
    };
  }

  /** The configured stream (created when asked to), else the stream that captures `subject`. */
  private async resolveStream(jsm: JetStreamManager): Promise<string> {
    const { stream, subject, create_stream } = this.config;
    if (!stream) {
      try {
        return await jsm.streams.find(subject as string);
      } catch (err) {
        throw new Error(`no stream captures subject '${subject}': ${errorMessage(err)}`);
      }
    }
    try {
      await jsm.streams.info(stream);
    } catch (err) {
      if (!create_stream || !isNotFound(err)) throw new Error(`stream '${stream}': ${errorMessage(err)}`);
      await jsm.streams.add({ name: stream, subjects: [subject || stream] });
    }
    return stream;
  }

  /** A shared durable (by `durable`, or `queue` as its name), bound as is with `bind`, or an ephemeral one. */
  private async resolveConsumer(jsm: JetStreamManager, stream: string): Promise<string> {
    const name = this.config.durable || this.config.queue;
    if (name) {
      try {
        await jsm.consumers.info(stream, name);
        return name;
      } catch (err) {
        if (this.config.bind || !isNotFound(err))
          throw new Error(`consumer '${name}' of stream '${stream}': ${errorMessage(err)}`);
      }
    }
    const wanted: Partial<ConsumerConfig> = {
      ack_policy: nats().jetstream.AckPolicy.Explicit,
      deliver_policy: deliverPolicy(this.config.deliver),
      ack_wait: nats().transport.nanos(this.config.ack_wait),
      max_ack_pending: this.config.max_ack_pending,
      ...(this.config.subject ? { filter_subject: this.config.subject } : {}),
      ...(name
        ? { durable_name: name }
        : { inactive_threshold: nats().transport.nanos(EPHEMERAL_INACTIVE_MS) }),
    };
    try {
      return (await jsm.consumers.add(stream, wanted)).name;
    } catch (err) {
      // Another instance created the same durable a moment ago: share it.
      if (name && /already (exists|in use)/i.test(errorMessage(err))) return name;
      throw new Error(`cannot create consumer on stream '${stream}': ${errorMessage(err)}`);
    }
  }
}

const fields = [
  urlsField(),
  maxReconnectsField(),
  field.string(
    'queue',
    'An optional queue group to consume as (the name of a consumer shared by its members).',
    {
      optional: true,
    },
  ),
  field.string(
    'subject',
    'A subject to consume from. Supports wildcards for consuming multiple subjects. Either a subject or stream must be specified.',
    { optional: true, examples: ['foo.bar.baz', 'foo.*.baz', 'foo.bar.*', 'foo.>'] },
  ),
  field.string('durable', 'Preserve the state of your consumer under a durable name.', {
    optional: true,
  }),
  field.string('stream', 'A stream to consume from. Either a subject or stream must be specified.', {
    optional: true,
  }),
  field.bool('bind', 'Use an existing consumer (`durable` on `stream`) instead of creating one.', {
    optional: true,
  }),
  field.bool('create_stream', 'Create `stream` (capturing `subject`) when it does not exist.', {
    default: false,
    advanced: true,
  }),
  field.enum(
    'deliver',
    'Where a newly created consumer starts in the stream.',
    ['all', 'last', 'last_per_subject', 'new'],
    {
      default: 'all',
    },
  ),
  field.duration(
    'ack_wait',
    'How long the server waits for an acknowledgement before it redelivers a message.',
    { default: '30s', advanced: true, examples: ['100ms', '5m'] },
  ),
  field.int('max_ack_pending', 'The most messages delivered and not yet acknowledged at once.', {
    default: 1024,
    advanced: true,
  }),
  ...securityFields(),
  tracingMapField('extract_tracing_map'),
] as const;

export const spec = defineComponent({
  name: 'nats_jetstream',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Reads messages from a NATS JetStream stream, acknowledging each one after delivery.',
  description: `Each message is acked once every output has it and nacked when delivery failed, so the server redelivers it (as it also does when no answer arrives within \`ack_wait\`): at-least-once.

Messages are read through a pull consumer. A \`durable\` consumer keeps its position on the server across restarts, and every instance that uses the same durable name shares its messages, which is how nekton scales out over JetStream. \`queue\` names a shared consumer the same way (it cannot be combined with \`durable\`). With neither, an ephemeral consumer is created and removed by the server five minutes after its reader went away. \`bind\` uses an existing consumer as it is configured on the server; otherwise a missing consumer is created with \`deliver\`, \`ack_wait\`, \`max_ack_pending\` and \`subject\` as its filter (an existing one is used as it is).

Without \`stream\`, the stream that captures \`subject\` is looked up. \`create_stream\` creates \`stream\` (capturing \`subject\`) when it does not exist.

### Metadata

This input adds the following metadata fields to each message:

- nats_subject
- nats_sequence_stream
- nats_sequence_consumer
- nats_num_delivered
- nats_num_pending
- nats_domain
- nats_timestamp_unix_nano
- All message headers (when supported by the connection)

### Connection name

The NATS connection is named after the component's label (\`nekton <label>\`).`,
  fields,
  lint: (config) => {
    const problems = lintNatsConnection(config);
    if (config.queue && config.durable)
      problems.push("both 'queue' and 'durable' can't be set simultaneously");
    if (!config.subject && !config.stream) problems.push('either a subject or stream must be specified');
    if (config.bind && !(config.durable || config.queue))
      problems.push("'bind' needs the name of an existing consumer in 'durable'");
    return problems;
  },
  examples: [
    {
      title: 'A durable consumer shared by every instance',
      config: `input:
  nats_jetstream:
    urls: [ nats://127.0.0.1:4222 ]
    stream: ORDERS
    subject: orders.>
    durable: order-processor
    deliver: all
pipeline:
  processors:
    - mapping: 'root = this.merge({"seq": @nats_sequence_stream})'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new NatsJetStreamReader(config, connectionName(ctx)));
  },
});
