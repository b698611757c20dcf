// The `nats` input: a core NATS subscription (optionally in a queue group). Core NATS keeps no
// copy of a message, so delivery is at-most-once: what arrives while nekton is down is gone.
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { NotConnectedError } from '../../engine/errors.js';
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

type NatsInputConfig = ConfigOf<typeof fields>;

const encoder = new TextEncoder();
const ACK = encoder.encode('+ACK');

export class NatsReader implements InputReader {
  private nc: NatsConnection | null = null;
  private sub: Subscription | null = null;
  private readonly queue: Msg[] = [];
  private wake: (() => void) | null = null;
  private lost: string | null = null;
  private closed = false;
  private dropped = 0;
  private readonly nak: Uint8Array;

  constructor(
    private readonly config: NatsInputConfig,
    private readonly ctx: BuildContext,
  ) {
    const delayMs = config.nak_delay ?? 0;
    // The JetStream ack protocol, for subjects that deliver JetStream messages to a core subscriber.
    this.nak = encoder.encode(delayMs > 0 ? `-NAK ${JSON.stringify({ delay: delayMs * 1e6 })}` : '-NAK');
  }

  async connect(): Promise<void> {
    const nc = await connectNats(this.config, connectionName(this.ctx));
    if (this.closed) {
      // Closed while dialing: nothing may keep the connection (or the process) alive.
      await closeQuietly(nc);
      return;
    }
    this.nc = nc;
    this.lost = null;
    const limit = this.config.prefetch_count;
    this.sub = nc.subscribe(this.config.subject, {
      ...(this.config.queue ? { queue: this.config.queue } : {}),
      callback: (err, msg) => {
        if (err) return;
        // A slow consumer drops beyond the prefetch limit rather than growing memory without bound.
        if (limit > 0 && this.queue.length >= limit) {
          if (this.dropped++ % 10_000 === 0)
            this.ctx.logger.warn(`slow consumer: dropped messages beyond prefetch_count ${limit}`);
          return;
        }
        this.queue.push(msg);
        this.notify();
      },
    });
    nc.closed().then((err) => {
      if (this.nc !== nc || this.closed) return;
      this.lost = `connection to NATS at ${nc.getServer()} closed${err ? `: ${err.message}` : ''}`;
      this.notify();
    });
    // The server has seen the subscription (or refused it) once the round trip completes.
    await nc.flush();
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      const msg = this.queue.shift();
      if (msg) return this.transaction(msg);
      if (this.closed) return null;
      if (this.lost) throw new NotConnectedError(this.lost);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.notify();
    this.sub?.unsubscribe();
    await closeQuietly(this.nc);
    this.nc = null;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private transaction(msg: Msg): Transaction {
    const message = new Message(msg.data);
    message.setMeta('nats_subject', msg.subject);
    if (msg.reply) message.setMeta('nats_reply_subject', msg.reply);
    headersToMetadata(message, msg.headers);
    const reply = this.config.send_ack && msg.reply ? msg : null;
    return {
      batch: [message],
      ack: async (err) => {
        reply?.respond(err === null ? ACK : this.nak);
      },
    };
  }
}

const fields = [
  urlsField(),
  maxReconnectsField(),
  field.string('subject', 'A subject to consume from. Supports wildcards for consuming multiple subjects.', {
    examples: ['foo.bar.baz', 'foo.*.baz', 'foo.bar.*', 'foo.>'],
  }),
  field.string('queue', 'An optional queue group to consume as.', { optional: true }),
  field.bool(
    'auto_replay_nacks',
    'Re-deliver nacked messages inside nekton until they succeed (core NATS cannot redeliver). When false, a nacked message is dropped.',
    { default: true },
  ),
  field.bool(
    'send_ack',
    'Answer messages that carry a reply subject with `+ACK` once delivered (`-NAK` when they failed).',
    {
      default: true,
    },
  ),
  field.duration('nak_delay', 'An optional delay before the server redelivers a nacked JetStream message.', {
    optional: true,
    advanced: true,
    examples: ['1m'],
  }),
  field.int(
    'prefetch_count',
    'How many received messages may wait for the pipeline; beyond it new messages are dropped (a slow consumer). 0 means no limit.',
    { default: 500000, advanced: true },
  ),
  ...securityFields(),
  tracingMapField('extract_tracing_map'),
] as const;

export const spec = defineComponent({
  name: 'nats',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Subscribes to a core NATS subject, optionally as a member of a queue group.',
  description: `Core NATS is at-most-once: the server keeps no copy of a message, so messages published while nekton is disconnected (or dropped as a slow consumer beyond \`prefetch_count\`) are lost and a nack cannot ask the server to send one again. With \`auto_replay_nacks\` (the default) nekton re-delivers nacked messages itself while it runs. Use \`nats_jetstream\` when every message must arrive.

Subscribers sharing a \`queue\` split the subject's messages between them (each message goes to one member), which is how several nekton instances share the work.

### Metadata

This input adds the following metadata fields to each message:

- nats_subject
- nats_reply_subject (when the message has one)
- All message headers (when supported by the connection)

With \`send_ack\`, a message that carries a reply subject is answered \`+ACK\` once delivered (or \`-NAK\`, delayed by \`nak_delay\`, when it failed), which is the acknowledgement protocol of JetStream messages delivered to a core subscription.

### Connection name

The NATS connection is named after the component's label (\`nekton <label>\`), so server monitoring shows which component a connection belongs to.`,
  fields,
  lint: (config) => [
    ...lintNatsConnection(config),
    ...(config.prefetch_count < 0 ? ['prefetch count must be greater than or equal to zero'] : []),
  ],
  examples: [
    {
      title: 'Share a subject between instances with a queue group',
      config: `input:
  nats:
    urls: [ nats://127.0.0.1:4222 ]
    subject: orders.created
    queue: order-workers
pipeline:
  processors:
    - mapping: 'root = this.merge({"subject": @nats_subject})'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new NatsReader(config, ctx), { autoReplayNacks: config.auto_replay_nacks });
  },
});
