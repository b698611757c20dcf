// `retry` output: writes to a child output and, when a write fails, retries the same batch with
// backoff instead of nacking the source, so upstream processing is not repeated.
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { Backoff, type BackoffConfig, sleep } from '../../engine/backoff.js';
import { failedBatches, failedMessages, partialError, partialGroupError } from '../../engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { writeGroupTo } from '../../engine/group_write.js';
import { stopController } from '../../engine/stop_signal.js';
import { type Batch, copyBatch } from '../../message/message.js';
import { backoffField } from '../fields/backoff.js';

export class RetryOutput implements Output {
  private readonly stopped = stopController();
  /** Writes currently retrying; while any is, new writes wait (as the reference does). */
  private retrying = 0;
  private gate: Array<() => void> = [];

  constructor(
    private readonly inner: Output,
    private readonly backoff: BackoffConfig,
    /** Retries after the first attempt; 0 = no limit. */
    private readonly maxRetries: number,
    private readonly logger?: Logger,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', this.stopWithStream, { once: true });
  }

  /** Kept to be removed at close: a dynamic member's retry must not outlive it on the stream's signal. */
  private readonly stopWithStream = () => this.stopped.abort();

  /**
   * Each attempt gets its own copies: what the child output changes must not leak into a retry.
   * When the child says which messages failed (a BatchError), only those are sent again.
   */
  write(batch: Batch): Promise<void> {
    const outstanding = new Outstanding(batch);
    let sent: Batch = batch;
    return this.attempt(
      () => {
        sent = copyBatch(outstanding.current());
        return this.inner.write(sent);
      },
      (err) => outstanding.narrow(failedMessages(err, sent)),
      (reason) => partialError(batch, outstanding.indices(), reason),
    );
  }

  /**
   * A group in one call to the child (its group write, or batch by batch). A failure retries the
   * batches of it that failed (all of them unless the child names them with a GroupWriteError).
   */
  writeGroup(batches: readonly Batch[]): Promise<void> {
    const outstanding = new Outstanding(batches);
    let sent: Batch[] = [];
    return this.attempt(
      () => {
        sent = outstanding.current().map(copyBatch);
        return writeGroupTo(this.inner, sent);
      },
      (err) => outstanding.narrow(failedBatches(err, sent)),
      (reason) => partialGroupError(batches, outstanding.indices(), reason),
    );
  }

  /**
   * Runs `send` (a fresh copy every time) once the gate is open, and retries it when it fails;
   * `failed` learns what each failed attempt did not deliver, `giveUp` makes the final error.
   */
  private async attempt(
    send: () => Promise<void>,
    failed: (err: unknown) => void,
    giveUp: (reason: Error) => Error,
  ): Promise<void> {
    while (this.retrying > 0 && !this.stopped.signal.aborted) {
      await new Promise<void>((resolve) => this.gate.push(resolve));
    }
    try {
      return await send();
    } catch (err) {
      failed(err);
      return this.retry(send, err, failed, giveUp);
    }
  }

  statuses(): ConnectionStatus[] {
    return this.inner.statuses();
  }

  async flush(): Promise<void> {
    await this.inner.flush?.();
  }

  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.stopWithStream);
    this.stopped.abort();
    this.openGate();
    await this.inner.close();
  }

  private async retry(
    send: () => Promise<void>,
    firstError: unknown,
    failed: (err: unknown) => void,
    giveUp: (reason: Error) => Error,
  ): Promise<void> {
    this.retrying++;
    try {
      const backoff = new Backoff(this.backoff);
      let lastError = firstError;
      for (let attempt = 1; ; attempt++) {
        const wait = backoff.next();
        if (wait === null || (this.maxRetries > 0 && attempt > this.maxRetries)) {
          this.logger?.error(`failed to send message: ${errorMessage(lastError)}`);
          throw giveUp(new Error('message failed to reach a target destination'));
        }
        this.logger?.warn(`failed to send message: ${errorMessage(lastError)}`);
        if (!(await sleep(wait, this.stopped.signal))) {
          throw giveUp(new Error(`output closed while retrying: ${errorMessage(lastError)}`));
        }
        try {
          return await send();
        } catch (err) {
          failed(err);
          lastError = err;
        }
      }
    } finally {
      this.retrying--;
      if (this.retrying === 0) this.openGate();
    }
  }

  private openGate(): void {
    const waiting = this.gate;
    this.gate = [];
    for (const resolve of waiting) resolve();
  }
}

/** What a retried write still has to deliver: indices into its parts (messages, or a group's batches). */
class Outstanding<T> {
  /** null: every part. */
  private left: number[] | null = null;

  constructor(private readonly parts: readonly T[]) {}

  current(): T[] {
    const { left, parts } = this;
    return left ? left.map((i) => parts[i]!) : (parts as T[]);
  }

  /** An attempt failed: only what it names (indices into what it sent) is still outstanding. */
  narrow(failed: readonly number[] | null): void {
    if (failed === null) return;
    const base = this.left;
    this.left = failed.map((i) => (base ? base[i]! : i));
  }

  indices(): number[] {
    return this.left ?? this.parts.map((_, i) => i);
  }
}

export const spec = defineComponent({
  name: 'retry',
  kind: 'output',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Writes messages to a child output and, when a write fails, retries it until it succeeds or `max_retries` or `backoff.max_elapsed_time` (when not zero) is reached.',
  description: `Without this output a failed write is reported back to the input, which redelivers the message so it is processed again before reaching the output. \`retry\` keeps the failed batch at the output instead: useful when processing must not run twice, for instance after a \`dedupe\` processor.

While a batch is being retried no new batches are written, so ordering is kept and a broken output slows the input down. Once the limits are reached the write fails and the input redelivers the message. To send failed messages somewhere else instead, use \`fallback\`.`,
  fields: [
    field.int('max_retries', 'The most retries of a failed write; 0 retries without limit.', {
      default: 0,
      advanced: true,
    }),
    backoffField(
      { initial_interval: '500ms', max_interval: '3s', max_elapsed_time: '0s' },
      { advanced: true },
    ),
    field.component('output', 'output', 'The child output to write to.'),
  ],
  examples: [
    {
      title: 'Keep retrying an HTTP endpoint',
      config: `input:
  generate:
    count: 1
    mapping: 'root = "hello"'
output:
  retry:
    max_retries: 5
    backoff:
      initial_interval: 1s
      max_interval: 10s
    output:
      http_client:
        url: http://localhost:4195/post
        verb: POST
`,
    },
  ],
  build: async (config, ctx): Promise<Output> => {
    const inner = await ctx.buildOutput(config.output);
    return new RetryOutput(inner, config.backoff, config.max_retries, ctx.logger, ctx.signal);
  },
});
