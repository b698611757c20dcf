// The `nats_request_reply` processor: sends each message as a NATS request and replaces it with
// the reply (its headers become metadata).
import type { NatsConnection } from '@nats-io/transport-node';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { flagged, processorErrorLog } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { expandUrls, redactUrl } from '../connection/urls.js';
import { metadataFilterField } from '../fields/metadata.js';
import {
  connectionName,
  connectionOptions,
  HeaderBuilder,
  headersToMetadata,
  lintNatsConnection,
  maxReconnectsField,
  type NatsConnectionConfig,
  securityFields,
  urlsField,
} from '../nats/connection.js';
import { loadNats } from '../nats/library.js';

const fields = [
  urlsField(),
  maxReconnectsField(),
  field.interpolated('subject', 'A subject to write to.', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
    examples: ['foo.bar.baz', '${! meta("kafka_topic") }', 'foo.${! json("meta.type") }'],
  }),
  field.string('inbox_prefix', 'Set an explicit inbox prefix for the response subject', {
    optional: true,
    advanced: true,
    examples: ['_INBOX_joe'],
  }),
  field.map(
    field.interpolated('headers', 'Explicit message headers to add to messages.', {
      default: {},
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: [{ 'Content-Type': 'application/json', Timestamp: '${!meta("Timestamp")}' }],
    }),
  ),
  metadataFilterField(
    'metadata',
    'Determine which (if any) metadata values should be added to messages as headers.',
    { optional: true, advanced: false },
  ),
  field.duration('timeout', 'How long to wait for the reply, as a duration string such as 300ms or 2h45m.', {
    default: '3s',
    optional: true,
  }),
  ...securityFields(),
] as const;

/** A connection opened on first use and again on the next use after it closed. */
class RequestConnection {
  private opening: Promise<NatsConnection> | null = null;
  private closed = false;
  /** The configured servers, for errors. */
  readonly where: string;

  constructor(
    private readonly config: NatsConnectionConfig,
    private readonly name: string,
    private readonly inboxPrefix: string | undefined,
  ) {
    this.where = expandUrls(config.urls).map(redactUrl).join(', ');
  }

  async get(): Promise<NatsConnection> {
    if (this.closed) throw new Error('nats_request_reply is closed');
    const current = this.opening ? await this.opening.catch(() => null) : null;
    if (current && !current.isClosed()) return current;
    if (!this.opening || current) this.opening = this.open();
    const opening = this.opening;
    opening.catch(() => {
      if (this.opening === opening) this.opening = null;
    });
    return opening;
  }

  private async open(): Promise<NatsConnection> {
    const options = await connectionOptions(this.config, this.name);
    if (this.inboxPrefix !== undefined) options.inboxPrefix = this.inboxPrefix;
    try {
      return await (await loadNats()).transport.connect(options);
    } catch (err) {
      throw new Error(`cannot connect to NATS at ${this.where}: ${errorMessage(err)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const opening = this.opening;
    this.opening = null;
    await closeQuietly(await opening?.catch(() => null));
  }
}

export class NatsRequestReplyProcessor implements Processor {
  private readonly logError: (err: Error) => void;

  constructor(
    private readonly connection: RequestConnection,
    private readonly subject: { render(batch: Batch, index: number): string },
    private readonly headers: HeaderBuilder,
    private readonly timeoutMs: number,
    logger: Parameters<typeof processorErrorLog>[0],
  ) {
    this.logError = processorErrorLog(logger);
  }

  /** The requests of a batch go out together; each message waits for its own reply. */
  async process(batch: Batch): Promise<Batch[]> {
    const out = await Promise.all(
      batch.map(async (msg: Message, i) => {
        try {
          return await this.request(batch, i, msg);
        } catch (err) {
          const bad = flagged(msg, err);
          this.logError(bad.error as Error);
          return bad;
        }
      }),
    );
    return [out];
  }

  private async request(batch: Batch, i: number, msg: Message): Promise<Message> {
    const subject = this.subject.render(batch, i);
    // Connect first: the header builder needs the client library loaded.
    const nc = await this.connection.get();
    const hdrs = this.headers.build(batch, i);
    let reply: Awaited<ReturnType<NatsConnection['request']>>;
    try {
      reply = await nc.request(subject, msg.bytes(), {
        timeout: this.timeoutMs > 0 ? this.timeoutMs : 3000,
        ...(hdrs ? { headers: hdrs } : {}),
      });
    } catch (err) {
      throw new Error(`request to ${subject} at ${this.connection.where}: ${errorMessage(err)}`);
    }
    const out = msg.copy();
    out.setBytes(reply.data);
    headersToMetadata(out, reply.headers);
    return out;
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

export const spec = defineComponent({
  name: 'nats_request_reply',
  kind: 'processor',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Sends a message to a NATS subject and expects a reply, from a NATS subscriber acting as a responder, back.',
  description: `Each message is sent as a request to \`subject\` (interpolated per message) and replaced by the reply; the headers of the reply become metadata. A request that gets no reply within \`timeout\`, or that finds no responder, flags the message with the error (and leaves its content as it was), so \`catch\` or \`switch\` can handle it.

\`headers\` are interpolated per message; \`metadata\` adds the metadata keys it includes as headers. \`inbox_prefix\` sets the prefix of the reply subjects. The connection is opened on first use and opened again on the next message after it was lost.`,
  fields,
  lint: lintNatsConnection,
  examples: [
    {
      title: 'Enrich each message from a NATS service',
      config: `input:
  generate:
    count: 1
    interval: ''
    mapping: 'root = {"user": "ash"}'
pipeline:
  processors:
    - branch:
        processors:
          - nats_request_reply:
              urls: [ nats://127.0.0.1:4222 ]
              subject: users.lookup
              timeout: 2s
        result_map: 'root.profile = this'
    - catch:
        - log:
            message: 'lookup failed: \${! error() }'
output:
  stdout: {}
`,
    },
  ],
  build(config, ctx): Processor {
    return new NatsRequestReplyProcessor(
      new RequestConnection(config, connectionName(ctx), config.inbox_prefix),
      config.subject,
      new HeaderBuilder(config.headers, config.metadata),
      config.timeout,
      ctx.logger,
    );
  },
});
