// The `nats_kv` output: puts each message into a NATS key-value bucket under an interpolated key.
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch, Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import {
  connectionName,
  connectNats,
  lintNatsConnection,
  maxReconnectsField,
  type NatsConnectionConfig,
  reportWhenClosed,
  securityFields,
  urlsField,
} from '../nats/connection.js';
import { nats } from '../nats/library.js';

const fields = [
  urlsField(),
  maxReconnectsField(),
  field.string('bucket', 'The name of the KV bucket.', { examples: ['my_kv_bucket'] }),
  field.interpolated('key', 'The key for each message.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['foo', 'foo.bar.baz', 'foo.${! json("meta.type") }'],
  }),
  field.int(
    'max_in_flight',
    'The maximum number of messages to have in flight at a given time. Increase this to improve throughput.',
    { default: 1024 },
  ),
  ...securityFields(),
] as const;

export class NatsKvWriter implements OutputWriter {
  private nc: NatsConnection | null = null;
  private kv: KV | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    private readonly config: NatsConnectionConfig & { bucket: string },
    private readonly key: { render(batch: Batch, index: number): string },
    private readonly name: string,
  ) {}

  async connect(): Promise<void> {
    const nc = await connectNats(this.config, this.name);
    if (this.closed) {
      await closeQuietly(nc);
      return;
    }
    let kv: KV;
    try {
      kv = await new (nats().kv.Kvm)(nc).open(this.config.bucket);
      // open() is lazy: asking for the status proves the bucket exists.
      await kv.status();
    } catch (err) {
      const server = nc.getServer();
      await closeQuietly(nc);
      throw new Error(`NATS KV bucket '${this.config.bucket}' at ${server}: ${errorMessage(err)}`);
    }
    const old = this.nc;
    this.nc = nc;
    this.kv = kv;
    await closeQuietly(old);
    reportWhenClosed(nc, this.config, this.lost, () => this.nc === nc && !this.closed);
  }

  async write(batch: Batch): Promise<void> {
    const nc = this.nc;
    const kv = this.kv;
    if (!nc || !kv || nc.isClosed()) throw new NotConnectedError('not connected to NATS');
    try {
      // Puts of one batch go out together; each is acknowledged by JetStream once stored.
      await Promise.all(batch.map((msg: Message, i) => kv.put(this.key.render(batch, i), msg.bytes())));
    } catch (err) {
      if (nc.isClosed()) throw new NotConnectedError(`NATS connection lost: ${errorMessage(err)}`);
      throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const nc = this.nc;
    this.nc = null;
    this.kv = null;
    await closeQuietly(nc);
  }
}

export const spec = defineComponent({
  name: 'nats_kv',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Put messages in a NATS key-value bucket.',
  description: `The field \`key\` supports interpolation functions, allowing you to create a unique key for each message. A message is acknowledged once JetStream has stored it; the bucket must exist (for example \`nats kv add my_kv_bucket\`). While the server cannot be reached, writes wait and retry with the engine's backoff, and \`/ready\` reports the outage.`,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Keep the latest reading per sensor',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"sensor": "s" + counter().string(), "value": random_int()}'
output:
  nats_kv:
    urls: [ nats://127.0.0.1:4222 ]
    bucket: readings
    key: 'sensor.\${! this.sensor }'
`,
    },
  ],
  build(config, ctx): Output {
    return ctx.wrapWriter(new NatsKvWriter(config, config.key, connectionName(ctx)), {
      maxInFlight: config.max_in_flight,
    });
  },
});
