// What the `nats` and `nats_jetstream` outputs share: their fields (the reference declares the same
// group for both) and a writer's connection, dialed by connect() and watched for loss.
import type { NatsConnection } from '@nats-io/transport-node';
import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, field } from '../../config/spec.js';
import { LostConnection } from '../../engine/lost_connection.js';
import { closeQuietly } from '../connection/close_quietly.js';
import { metadataFilterField } from '../fields/metadata.js';
import {
  connectNats,
  type HeaderBuilder,
  maxReconnectsField,
  reportWhenClosed,
  securityFields,
  tracingMapField,
  urlsField,
} from './connection.js';

/** `urls` ... `inject_tracing_map`; only the subject's wording and `max_in_flight`'s default differ. */
export function publishFields(subject: { description: string; examples: string[] }, maxInFlight: number) {
  return [
    urlsField(),
    maxReconnectsField(),
    field.interpolated('subject', subject.description, { examples: subject.examples }),
    field.map(
      field.interpolated('headers', 'Explicit message headers to add to messages.', {
        default: {},
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
        examples: [{ 'Content-Type': 'application/json', Timestamp: '${!meta("Timestamp")}' }],
      }),
    ),
    metadataFilterField('metadata', 'Which metadata keys to send as headers.', {
      optional: true,
      advanced: false,
    }),
    field.int(
      'max_in_flight',
      'The maximum number of messages to have in flight at a given time. Increase this to improve throughput.',
      { default: maxInFlight },
    ),
    ...securityFields(),
    tracingMapField('inject_tracing_map'),
  ] as const;
}

/** The end of both outputs' descriptions: what is interpolated, and the connection's name. */
export const PUBLISH_DESCRIPTION_TAIL = `\`subject\` and the values of \`headers\` are interpolated per message; \`metadata\` adds the metadata keys it includes as headers.

### Connection name

The NATS connection is named after the component's label (\`nekton <label>\`).`;

export type NatsPublishConfig = ConfigOf<ReturnType<typeof publishFields>>;

/** The connection half of a NATS output writer; subclasses publish through `nc`. */
export abstract class NatsPublisherConnection {
  protected nc: NatsConnection | null = null;
  protected closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    protected readonly config: NatsPublishConfig,
    protected readonly subject: Interpolation,
    protected readonly headers: HeaderBuilder,
    private readonly name: string,
  ) {}

  /** Called with the new connection before loss is watched (e.g. to open a JetStream client). */
  protected connected(_nc: NatsConnection): void {}

  async connect(): Promise<void> {
    const nc = await connectNats(this.config, this.name);
    if (this.closed) {
      // Closed while dialing: nothing may keep the connection (or the process) alive.
      await closeQuietly(nc);
      return;
    }
    this.nc = nc;
    this.connected(nc);
    reportWhenClosed(nc, this.config, this.lost, () => this.nc === nc && !this.closed);
  }
}
