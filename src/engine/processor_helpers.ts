// Building blocks for processors that work message by message: failures flag the message instead
// of failing the batch (as Benthos does), and synchronous work never pays for a promise.
import type { Logger } from 'pino';
import { type Batch, Message } from '../message/message.js';
import type { Processor } from './component.js';
import type { BuildContext } from './context.js';
import { ConfigError, errorMessage } from './errors.js';

/** One message in, zero (null), one or many messages out. */
export type MessageResult = Message | Message[] | null;

export type MessageFn = (msg: Message, batch: Batch, index: number) => MessageResult | Promise<MessageResult>;

export interface PerMessageOptions {
  /** Called with every failure, e.g. to log it (see `processorErrorLog`). */
  onError?: (err: Error, msg: Message, index: number) => void;
}

/** A copy of msg carrying err, so the original (shared with other branches) stays untouched. */
export function flagged(msg: Message, err: unknown): Message {
  const copy = msg.copy();
  copy.error = err instanceof Error ? err : new Error(String(err));
  return copy;
}

/**
 * Runs fn over every message of a batch in order, returning one batch (or none when every
 * message was dropped). A throw or rejection flags that message and processing goes on. While fn
 * returns plain values the whole batch completes synchronously; from the first promise on, the
 * remaining messages are awaited one by one (order matters for caches and rate limits).
 */
export function perMessage(fn: MessageFn, options: PerMessageOptions = {}): Processor['process'] {
  const onError = options.onError;
  const failed = (msg: Message, index: number, err: unknown): Message => {
    const bad = flagged(msg, err);
    onError?.(bad.error as Error, msg, index);
    return bad;
  };
  const fail = (out: Message[], msg: Message, index: number, err: unknown) => {
    out.push(failed(msg, index, err));
  };

  const finishAsync = async (
    batch: Batch,
    out: Message[],
    start: number,
    pending: Promise<MessageResult>,
  ): Promise<Batch[]> => {
    for (let i = start; i < batch.length; i++) {
      const msg = batch[i]!;
      try {
        appendResult(out, i === start ? await pending : await fn(msg, batch, i));
      } catch (err) {
        fail(out, msg, i, err);
      }
    }
    return out.length > 0 ? [out] : [];
  };

  return (batch) => {
    if (batch.length === 1) {
      // The common case (each message its own transaction): exact-size arrays, none grown by push.
      const msg = batch[0]!;
      let result: MessageResult | Promise<MessageResult> = null;
      try {
        result = fn(msg, batch, 0);
      } catch (err) {
        return [[failed(msg, 0, err)]];
      }
      if (result === null) return [];
      if (result instanceof Message) return [[result]];
      if (result instanceof Promise) return finishAsync(batch, [], 0, result);
      const out: Message[] = [];
      appendResult(out, result);
      return out.length > 0 ? [out] : [];
    }
    const out: Message[] = [];
    for (let i = 0; i < batch.length; i++) {
      const msg = batch[i]!;
      let result: MessageResult | Promise<MessageResult>;
      try {
        result = fn(msg, batch, i);
      } catch (err) {
        fail(out, msg, i, err);
        continue;
      }
      if (result instanceof Promise) return finishAsync(batch, out, i, result);
      appendResult(out, result);
    }
    return out.length > 0 ? [out] : [];
  };
}

function appendResult(out: Message[], result: MessageResult): void {
  if (result === null) return;
  if (Array.isArray(result)) {
    for (const m of result) out.push(m);
  } else {
    out.push(result);
  }
}

/**
 * Logs processor failures without flooding: the first failure of each distinct message text at
 * `error`, repeats at `debug`. The set of seen texts is bounded so varying messages (ids, keys)
 * cannot grow memory; once full, it starts again.
 */
export function processorErrorLog(logger: Logger, maxKinds = 256): (err: Error) => void {
  const seen = new Set<string>();
  return (err) => {
    const text = errorMessage(err);
    // Messages that differ only in the numbers they quote (values, indexes) are one kind.
    const kind = text.replace(/\d+/g, '#');
    if (seen.has(kind)) {
      logger.debug(text);
      return;
    }
    if (seen.size >= maxKinds) seen.clear();
    seen.add(kind);
    logger.error(text);
  };
}

/** Throws a ConfigError when a named resource is missing, as the reference does at build. */
export function requireResource(ctx: BuildContext, kind: 'cache' | 'rate_limit', name: string): void {
  if (!ctx.resources.has(kind, name)) {
    throw new ConfigError(`${kind === 'cache' ? 'cache' : 'rate limit'} resource '${name}' was not found`);
  }
}
