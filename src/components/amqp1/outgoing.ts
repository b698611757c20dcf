// A nekton message turned into the AMQP 1.0 message the amqp_1 output sends: the body section,
// the durable header, the interpolated properties, application-properties from a mapping and
// metadata as message annotations.
import type { Message as RheaMessage } from 'rhea';
import type { Interpolation } from '../../bloblang/index.js';
import type { Batch, Message } from '../../message/message.js';
import { type Amqp1OutputConfig, MESSAGE_PROPERTY_FIELDS, type PropertyField } from './output_fields.js';

/** rhea's typed-value helpers (loaded with the client). */
export interface Encoders {
  dataSection(bytes: Buffer): unknown;
  ulong(n: number | Buffer): unknown;
  uuid(bytes: Buffer): unknown;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const MAX_ULONG = 2n ** 64n - 1n;

export class OutgoingBuilder {
  private readonly properties: [PropertyField, Interpolation][] = [];

  constructor(
    private readonly config: Amqp1OutputConfig,
    private readonly encode: Encoders,
  ) {
    for (const name of Object.keys(MESSAGE_PROPERTY_FIELDS) as PropertyField[]) {
      const template = config[name];
      if (template) this.properties.push([name, template]);
    }
  }

  /** The AMQP message for batch[i]; throws (naming the field) when a value cannot be sent. */
  build(batch: Batch, i: number): RheaMessage {
    const msg = batch[i] as Message;
    const bytes = Buffer.from(msg.bytes());
    const out: Record<string, unknown> = {
      body: this.config.content_type === 'string' ? bytes.toString('utf8') : this.encode.dataSection(bytes),
    };
    if (this.config.persistent) out.durable = true;
    for (const [name, template] of this.properties) {
      const value = template.render(batch, i);
      if (value !== '') out[MESSAGE_PROPERTY_FIELDS[name]] = this.propertyValue(name, value);
    }
    const mapping = this.config.application_properties_map;
    if (mapping) {
      const mapped = mapping.apply(batch, i);
      const value = mapped?.structured();
      if (value !== undefined && value !== null) {
        if (typeof value !== 'object' || Array.isArray(value))
          throw new Error(
            `application_properties_map resulted in a non-object value (${Array.isArray(value) ? 'array' : typeof value})`,
          );
        out.application_properties = value;
      }
    }
    const annotations = this.annotations(msg);
    if (annotations) out.message_annotations = annotations;
    return out as unknown as RheaMessage;
  }

  private propertyValue(name: PropertyField, value: string): unknown {
    switch (name) {
      case 'message_properties_message_id':
      case 'message_properties_correlation_id':
        return this.id(value);
      case 'message_properties_group_sequence': {
        const n = Number(value);
        if (!/^\d+$/.test(value) || n > 0xffffffff) throw new Error(`${name}: '${value}' is not a uint32`);
        return n;
      }
      case 'message_properties_user_id':
        return Buffer.from(value);
      default:
        return value;
    }
  }

  /** A message or correlation id: a UUID, else a whole number (ulong), else the string (the reference's rule). */
  private id(value: string): unknown {
    if (UUID.test(value)) return this.encode.uuid(Buffer.from(value.replaceAll('-', ''), 'hex'));
    if (/^\d+$/.test(value) && BigInt(value) <= MAX_ULONG) {
      const n = BigInt(value);
      if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return this.encode.ulong(Number(n));
      const b = Buffer.alloc(8);
      b.writeBigUInt64BE(n);
      return this.encode.ulong(b);
    }
    return value;
  }

  private annotations(msg: Message): Record<string, unknown> | undefined {
    const excluded = this.config.metadata.exclude_prefixes;
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of msg.metadata()) {
      if (excluded.some((p) => k.startsWith(p))) continue;
      out ??= {};
      out[k] = annotationValue(v);
    }
    return out;
  }
}

/** Strings, numbers and booleans travel as such, bytes as binary, anything else as JSON text. */
function annotationValue(v: unknown): unknown {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? '';
}
