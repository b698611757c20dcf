// The `nats_kv` input: watches a NATS key-value bucket and emits every update as a message.
import type { KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { closeQuietly } from '../connection/close_quietly.js';
import {
  connectionName,
  connectNats,
  lintNatsConnection,
  maxReconnectsField,
  securityFields,
  urlsField,
} from '../nats/connection.js';
import { kvEntryMessage } from '../nats/kv_entry.js';
import { nats } from '../nats/library.js';

const a = { advanced: true };

const fields = [
  urlsField(),
  maxReconnectsField(),
  field.string('bucket', 'The name of the KV bucket.', { examples: ['my_kv_bucket'] }),
  field.string('key', 'Key to watch for updates, can include wildcards.', {
    default: '>',
    examples: ['foo.bar.baz', 'foo.*.baz', 'foo.bar.*', 'foo.>'],
  }),
  field.bool(
    'auto_replay_nacks',
    'Whether messages that are rejected (nacked) at the output level should be automatically replayed indefinitely. If set to `false` these messages are dropped.',
    { default: true },
  ),
  field.bool('ignore_deletes', 'Do not send delete markers as messages.', { default: false, ...a }),
  field.bool('include_history', 'Include all the history per key, not just the last one.', {
    default: false,
    ...a,
  }),
  field.bool('meta_only', 'Retrieve only the metadata of the entry', { default: false, ...a }),
  ...securityFields(),
] as const;

type NatsKvInputConfig = ConfigOf<typeof fields>;

export class NatsKvReader implements InputReader {
  private nc: NatsConnection | null = null;
  private stopWatch: (() => void) | null = null;
  private readonly queue: KvEntry[] = [];
  private wake: (() => void) | null = null;
  private lost: string | null = null;
  private closed = false;
  /** The revision of the newest entry received: a new watch resumes after it, not from the start. */
  private lastRevision = 0;

  constructor(
    private readonly config: NatsKvInputConfig,
    private readonly ctx: BuildContext,
  ) {}

  async connect(): Promise<void> {
    await this.disconnect();
    const nc = await connectNats(this.config, connectionName(this.ctx));
    if (this.closed) {
      await closeQuietly(nc);
      return;
    }
    try {
      const kv = await new (nats().kv.Kvm)(nc).open(this.config.bucket);
      // open() is lazy: asking for the status proves the bucket exists.
      await kv.status();
      const { KvWatchInclude } = nats().kv;
      const watcher = await kv.watch({
        key: this.config.key,
        ignoreDeletes: this.config.ignore_deletes,
        headers_only: this.config.meta_only,
        include: this.config.include_history ? KvWatchInclude.AllHistory : KvWatchInclude.LastValue,
        ...(this.lastRevision > 0 ? { resumeFromRevision: this.lastRevision + 1 } : {}),
      });
      this.nc = nc;
      this.lost = null;
      this.stopWatch = () => watcher.stop();
      void this.pump(nc, watcher);
      nc.closed().then((err) => this.markLost(nc, `connection closed${err ? `: ${errorMessage(err)}` : ''}`));
    } catch (err) {
      const server = nc.getServer();
      await closeQuietly(nc);
      throw new Error(`NATS KV bucket '${this.config.bucket}' at ${server}: ${errorMessage(err)}`);
    }
    this.ctx.logger.info(`Watching NATS KV bucket: ${this.config.bucket} for key(s): ${this.config.key}`);
  }

  private async pump(nc: NatsConnection, watcher: AsyncIterable<KvEntry>): Promise<void> {
    try {
      for await (const entry of watcher) {
        if (this.nc !== nc) return;
        if (entry.revision > this.lastRevision) this.lastRevision = entry.revision;
        this.queue.push(entry);
        this.notify();
      }
      this.markLost(nc, 'the watch ended');
    } catch (err) {
      this.markLost(nc, `the watch failed: ${errorMessage(err)}`);
    }
  }

  private markLost(nc: NatsConnection, why: string): void {
    if (this.nc !== nc || this.closed || this.lost) return;
    this.lost = `NATS KV bucket '${this.config.bucket}' at ${nc.getServer()}: ${why}`;
    this.notify();
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      const entry = this.queue.shift();
      if (entry) return { batch: [kvEntryMessage(entry)], ack: async () => undefined };
      if (this.closed) return null;
      if (this.lost || !this.nc) throw new NotConnectedError(this.lost ?? 'not connected to NATS');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.notify();
    await this.disconnect();
  }

  private async disconnect(): Promise<void> {
    const nc = this.nc;
    this.nc = null;
    this.stopWatch?.();
    this.stopWatch = null;
    await closeQuietly(nc);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

export const spec = defineComponent({
  name: 'nats_kv',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Watches for updates in a NATS key-value bucket.',
  description: `The watch starts with the latest value of every key matching \`key\` (every stored revision with \`include_history\`), then delivers each update as it happens. Delete and purge markers come as messages with an empty body unless \`ignore_deletes\` is set; \`meta_only\` delivers the metadata without the values.

The bucket keeps the data, not the reader's position: after a lost connection the watch resumes after the last revision received, so no update is missed; a restarted process starts over with the latest values. A nacked message is delivered again from memory (\`auto_replay_nacks\`).

### Metadata

This input adds the following metadata fields to each message:

\`\`\`text
- nats_kv_key
- nats_kv_bucket
- nats_kv_revision
- nats_kv_delta
- nats_kv_operation
- nats_kv_created
\`\`\``,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Follow the changes of a configuration bucket',
      config: `input:
  nats_kv:
    urls: [ nats://127.0.0.1:4222 ]
    bucket: settings
    key: 'service.>'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Input {
    return ctx.wrapReader(new NatsKvReader(config, ctx), { autoReplayNacks: config.auto_replay_nacks });
  },
});
