// The `read_until` input: reads a child input until a message passes a check (or none arrives for
// `idle_timeout`), then ends; optionally restarts the child whenever it ends on its own.
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { ConnectionStatus, Input, Transaction } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { type ExhaustedListener, Exhaustion } from '../../engine/exhaustion.js';
import { checkPasses } from '../processors/check.js';

const NEEDS_ONE = 'it is required to set either check or idle_timeout';
const IDLE = Symbol('idle');

export class ReadUntilInput implements Input {
  private current: Input | null = null;
  private started = false;
  private chain: Promise<unknown> = Promise.resolve();
  private ended = false;
  private readonly stop = new AbortController();
  /** The final message's outcome, awaited before reading on (the stream ends once it is delivered). */
  private finalOutcome: Promise<boolean> | null = null;
  private readonly exhaustion = new Exhaustion();
  private restartDelay = 1;
  private closing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly child: ComponentConfig,
    private readonly ctx: BuildContext,
    private readonly check: Mapping | undefined,
    private readonly idleTimeoutMs: number | undefined,
    private readonly restart: boolean,
  ) {}

  read(): Promise<Transaction | null> {
    const next = this.chain.then(() => this.next());
    this.chain = next.catch(() => undefined);
    return next;
  }

  statuses(): ConnectionStatus[] {
    return this.current?.statuses() ?? [];
  }

  onExhausted(listener: ExhaustedListener): void {
    this.exhaustion.add(listener);
  }

  async close(): Promise<void> {
    this.stop.abort();
    this.end();
    await this.closing;
  }

  /**
   * Ends reading. The child is closed in the background: its close may wait for the acks of
   * messages still in flight, which the stream settles only after this input has ended.
   */
  private end(): null {
    this.ended = true;
    const current = this.current;
    this.current = null;
    this.exhaustion.fire();
    if (current) this.closing = Promise.all([this.closing, current.close().catch(() => undefined)]);
    return null;
  }

  private async next(): Promise<Transaction | null> {
    while (!this.ended) {
      if (this.finalOutcome) {
        const delivered = await this.finalOutcome;
        this.finalOutcome = null;
        if (delivered) return this.end();
      }
      const input = await this.childInput();
      if (!input) return this.end();
      const txn = await this.readWithin(input);
      if (this.ended) {
        // close() came first: the message goes back to its source.
        if (txn && txn !== IDLE) await txn.ack(new Error('read_until input closed'));
        return null;
      }
      if (txn === IDLE) {
        this.ctx.logger.info('Idle timeout reached');
        return this.end();
      }
      if (txn === null) {
        this.current = null;
        this.closing = Promise.all([this.closing, input.close().catch(() => undefined)]);
        continue;
      }
      this.restartDelay = 1;
      if (!this.passes(txn)) return txn;
      txn.batch[0]?.setMeta('benthos_read_until', 'final');
      let settle: (delivered: boolean) => void = () => undefined;
      this.finalOutcome = new Promise<boolean>((resolve) => {
        settle = resolve;
      });
      return {
        batch: txn.batch,
        ack: async (err) => {
          try {
            await txn.ack(err);
          } finally {
            settle(err === null);
          }
        },
      };
    }
    return null;
  }

  /** The child to read from: built on first use, and again after it ended when `restart_input` is set. */
  private async childInput(): Promise<Input | null> {
    if (this.current) return this.current;
    if (this.started) {
      if (!this.restart) return null;
      // A child that ends at once would otherwise be rebuilt in a busy loop.
      if (!(await sleep(this.restartDelay, this.stop.signal))) return null;
      this.restartDelay = Math.min(this.restartDelay * 2, 100);
    }
    this.started = true;
    const input = await this.ctx.buildInput(this.child);
    if (this.ended) {
      await input.close();
      return null;
    }
    this.current = input;
    return input;
  }

  private readWithin(input: Input): Promise<Transaction | null | typeof IDLE> {
    const ms = this.idleTimeoutMs;
    const reading = input.read();
    if (ms === undefined || ms <= 0) return reading;
    return new Promise((resolve, reject) => {
      let idle = false;
      const timer = setTimeout(() => {
        idle = true;
        resolve(IDLE);
      }, ms);
      reading.then(
        (txn) => {
          clearTimeout(timer);
          // A message that arrived after the timeout goes back to its source.
          if (idle && txn) void txn.ack(new Error('read_until idle timeout reached')).catch(() => undefined);
          else resolve(txn);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!idle) reject(err);
        },
      );
    });
  }

  private passes(txn: Transaction): boolean {
    if (!this.check) return false;
    try {
      return checkPasses(this.check, txn.batch, 0);
    } catch (err) {
      this.ctx.logger.error(`Failed to execute check query: ${errorMessage(err)}`);
      return false;
    }
  }
}

export const spec = defineComponent({
  name: 'read_until',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Reads messages from a child input until a message passes a Bloblang query, then ends; it can also end once no message arrived for a while.',
  description: `Messages are read while the check gives false; the message that makes it true is sent on too, and once it is delivered the input ends (if its delivery fails, reading goes on). It carries the metadata \`benthos_read_until: final\` on its first message. Use it to end a stream once some message appears.

With \`idle_timeout\` the input also ends when no message arrived for that long: a way to drain a source that has no end. At least one of \`check\` and \`idle_timeout\` is required.

Some inputs end on their own (a \`file\` input at the end of its files); \`read_until\` then ends too, unless \`restart_input\` is set: then the child is built again each time it ends, until the check passes.`,
  fields: [
    field.component('input', 'input', 'The child input to read from.'),
    field.mapping('check', 'A Bloblang query giving whether the input should now end.', {
      optional: true,
      examples: ['this.type == "foo"', 'count("messages") >= 100'],
    }),
    field.duration('idle_timeout', 'How long without a new message after which the input ends.', {
      optional: true,
      examples: ['5s'],
    }),
    field.bool(
      'restart_input',
      'Whether the child input is opened again when it ends before the check passed.',
      {
        default: false,
      },
    ),
  ],
  examples: [
    {
      title: 'Consume N messages',
      config: `input:
  read_until:
    check: count("messages") >= 100
    input:
      generate:
        interval: ''
        mapping: 'root = counter()'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => (!config.check && !config.idle_timeout ? [NEEDS_ONE] : []),
  build: (config, ctx): Input => {
    if (!config.check && config.idle_timeout === undefined)
      throw new ConfigError(`${ctx.path}: ${NEEDS_ONE}`);
    return new ReadUntilInput(config.input, ctx, config.check, config.idle_timeout, config.restart_input);
  },
});
