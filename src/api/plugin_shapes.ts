// What a plugin's factory returns, per kind: small interfaces over the public Message, adapted to
// the engine's own (adapters.ts), so the engine's interfaces stay free to change.
import type { Logger } from 'pino';
import type {
  AnyField,
  ComponentStatus,
  ConfigOf,
  ComponentDefinition as EngineDefinition,
} from '../config/spec.js';
import type { Message } from './message.js';

/** What a plugin factory may read about the component being built. */
export interface PluginContext {
  /** The component's label (empty when none was given). */
  readonly label: string;
  /** Its config path, e.g. `root.pipeline.processors.0`. */
  readonly path: string;
  readonly logger: Logger;
  /** Aborted when the stream is force-stopped: long waits should give up. */
  readonly signal: AbortSignal;
}

/** A component declared with the same field builders as the built-ins. */
export interface PluginDefinition<Fields extends readonly AnyField[], Built>
  extends Omit<EngineDefinition<Fields, Built>, 'kind' | 'status' | 'build'> {
  /** Defaults to `experimental`. */
  status?: ComponentStatus;
  build(config: ConfigOf<Fields>, ctx: PluginContext): Built | Promise<Built>;
}

/** Settles what `read()` handed out: null = delivered, an Error = failed (redeliver or nack). */
export type PluginAck = (err: Error | null) => void | Promise<void>;

export type PluginRead = Message | Message[] | { messages: Message[]; ack: PluginAck } | null;

export interface PluginInput {
  /** Opens the connection; throwing means "retry later with backoff". */
  connect?(): Promise<void>;
  /** The next message(s), with an ack when the source wants to know; null when it has ended. */
  read(): Promise<PluginRead>;
  close?(): Promise<void>;
}

export interface PluginOutput {
  connect?(): Promise<void>;
  /** Delivers every message or throws (the input is then nacked). */
  write(messages: Message[]): Promise<void>;
  close?(): Promise<void>;
}

/** Zero, one or several messages out; null or [] drops the message. Throwing flags it as failed. */
export type ProcessResult = Message | Message[] | null | undefined;

export interface PluginProcessor {
  process(message: Message): ProcessResult | Promise<ProcessResult>;
  close?(): Promise<void>;
}

export interface PluginBatchProcessor {
  /** Returns the batches to pass on (one batch: `[messages]`). Throwing flags every message. */
  processBatch(messages: Message[]): Message[][] | Promise<Message[][]>;
  close?(): Promise<void>;
}

export interface PluginCache {
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, value: Uint8Array, ttlMs?: number): Promise<void>;
  /** Sets only when absent; false when the key exists. Defaults to get then set. */
  add?(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean>;
  delete(key: string): Promise<void>;
  close?(): Promise<void>;
}

export interface PluginRateLimit {
  /** 0 when the caller may go now, else how many milliseconds to wait before asking again. */
  access(): Promise<number>;
  close?(): Promise<void>;
}
