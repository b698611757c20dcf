// `sequence` input: reads its inputs one after another, moving to the next once the current one
// has ended. Each input is built only when its turn comes (a file may appear meanwhile).
import { defineComponent, field } from '../../config/spec.js';
import type { ConnectionStatus, Input, Transaction } from '../../engine/component.js';
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { type ExhaustedListener, Exhaustion } from '../../engine/exhaustion.js';

const NO_INPUTS = 'sequence needs at least one input';
const NO_SHARDED_JOIN = 'sequence.sharded_join is not supported by nekton yet';

export class SequenceInput implements Input {
  private index = 0;
  private current: Input | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Earlier inputs still settling their last batches; closed in the background. */
  private readonly retiring = new Set<Promise<void>>();
  private readonly exhaustion = new Exhaustion();

  constructor(
    private readonly inputs: readonly ComponentConfig[],
    private readonly ctx: BuildContext,
  ) {}

  read(): Promise<Transaction | null> {
    const next = this.chain.then(() => this.next());
    this.chain = next.catch(() => undefined);
    return next;
  }

  statuses(): ConnectionStatus[] {
    return this.current?.statuses() ?? [];
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = null;
    await current?.close();
    await Promise.allSettled([...this.retiring]);
  }

  /** Final when the last input is exhausted; a part when an earlier one is. */
  onExhausted(listener: ExhaustedListener): void {
    this.exhaustion.add(listener);
  }

  private async next(): Promise<Transaction | null> {
    while (!this.closed) {
      const current = this.current ?? (await this.start());
      if (!current) return null;
      const txn = await current.read();
      if (txn) return txn;
      // close() took the input meanwhile and closes it itself.
      if (this.closed) return null;
      this.current = null;
      this.index++;
      this.ctx.logger.info(`sequence input ${this.index} of ${this.inputs.length} has ended`);
      const closing = current.close().catch(() => undefined);
      this.retiring.add(closing);
      closing.then(() => this.retiring.delete(closing));
    }
    return null;
  }

  /** Builds the input whose turn it is; null when there is none left or the sequence closed. */
  private async start(): Promise<Input | null> {
    const config = this.inputs[this.index];
    if (!config) return null;
    const input = await this.ctx.buildInput(config);
    if (this.closed) {
      await input.close();
      return null;
    }
    const last = this.index === this.inputs.length - 1;
    // An earlier input waiting for its acks needs the output flushed before the next one starts.
    input.onExhausted?.((event) => {
      if (event !== undefined) this.exhaustion.signal(event);
      else if (last) this.exhaustion.fire();
      else this.exhaustion.signal('part');
    });
    if (this.index > 0) this.exhaustion.signal('resumed');
    this.current = input;
    return input;
  }
}

export const spec = defineComponent({
  name: 'sequence',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary: 'Reads its inputs one after another: the next one starts once the current one has ended.',
  description: `Useful to process a backlog (files) before switching to a live source. Each message is acknowledged to the input it came from. The input ends once the last one has ended.

\`sharded_join\` (joining the documents of several inputs by an id) is not implemented by nekton yet; only \`type: none\` is accepted.`,
  fields: [
    field.object(
      'sharded_join',
      'Joins documents of all inputs by an id before emitting them (only `none` is implemented).',
      [
        field.string('type', 'The type of join.', {
          default: 'none',
          advanced: true,
          options: ['none', 'full-outer', 'outer', 'full-outter', 'outter'],
        }),
        field.string('id_path', 'A dot path to the id of each document.', { default: '', advanced: true }),
        field.int('iterations', 'How many chunks the join is split into.', { default: 1, advanced: true }),
        field.string('merge_strategy', 'How colliding fields are merged.', {
          default: 'array',
          advanced: true,
          options: ['array', 'replace', 'keep'],
        }),
      ],
      { advanced: true },
    ),
    field.array(field.component('input', 'inputs', 'The inputs, read in this order.')),
  ],
  examples: [
    {
      title: 'A backlog first, then live data',
      config: `input:
  sequence:
    inputs:
      - generate:
          count: 2
          interval: ''
          mapping: 'root = {"phase": "backlog", "n": counter()}'
      - generate:
          count: 2
          interval: ''
          mapping: 'root = {"phase": "live", "n": counter()}'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => [
    ...(config.inputs.length === 0 ? [NO_INPUTS] : []),
    ...(config.sharded_join.type !== 'none' ? [NO_SHARDED_JOIN] : []),
  ],
  build: (config, ctx): Input => {
    // Also here: members added over the dynamic API are built without lint.
    if (config.inputs.length === 0) throw new ConfigError(`${ctx.path}: ${NO_INPUTS}`);
    if (config.sharded_join.type !== 'none') throw new ConfigError(`${ctx.path}: ${NO_SHARDED_JOIN}`);
    return new SequenceInput(config.inputs, ctx);
  },
});
