// The message as plugin and consumer code sees it: a small, stable face over the engine's
// Message, which keeps its own (faster, larger) interface free to change.
import { Message as EngineMessage } from '../message/message.js';

export type Content = string | Uint8Array | object | null;

export class Message {
  /** @internal The engine's message; plugin code never needs it. */
  readonly inner: EngineMessage;

  constructor(content: Content = null, metadata?: Record<string, unknown>) {
    this.inner = toEngineMessage(content);
    for (const [key, value] of Object.entries(metadata ?? {})) this.inner.setMeta(key, value);
  }

  /** @internal Wraps an engine message without copying it. */
  static of(inner: EngineMessage): Message {
    const message = Object.create(Message.prototype) as { inner: EngineMessage };
    message.inner = inner;
    return message as Message;
  }

  asString(): string {
    return this.inner.text();
  }

  asBuffer(): Buffer {
    const bytes = this.inner.bytes();
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The content parsed as JSON; throws when it is not JSON. */
  asJson(): unknown {
    return this.inner.structured();
  }

  /** A copy with new content (a string or bytes as is, anything else as JSON) and the same metadata. */
  withContent(content: Content): Message {
    const copy = this.inner.copy();
    setContent(copy, content);
    return Message.of(copy);
  }

  metadata(key: string): unknown {
    return this.inner.getMeta(key);
  }

  /** Every metadata entry, as a plain object. */
  metadataObject(): Record<string, unknown> {
    return Object.fromEntries(this.inner.metadata());
  }

  /** Sets (or, with undefined, deletes) a metadata entry; returns this message. */
  setMetadata(key: string, value: unknown): this {
    if (value === undefined) this.inner.deleteMeta(key);
    else this.inner.setMeta(key, value);
    return this;
  }

  /** The error a processor flagged on this message (the `catch` processor reads it), or null. */
  error(): Error | null {
    return this.inner.error;
  }

  /** Flags the message as failed (or clears the flag with null); returns this message. */
  setError(err: Error | string | null): this {
    this.inner.error = typeof err === 'string' ? new Error(err) : err;
    return this;
  }
}

function toEngineMessage(content: Content): EngineMessage {
  const message = new EngineMessage(null);
  setContent(message, content);
  return message;
}

function setContent(message: EngineMessage, content: Content): void {
  if (typeof content === 'string' || content instanceof Uint8Array) message.setBytes(content);
  else if (content === null) message.setBytes('');
  else message.setStructured(content);
}
