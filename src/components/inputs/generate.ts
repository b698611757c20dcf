// `generate`: creates messages from a Bloblang mapping run against an empty message, on an
// interval or cron schedule or as fast as the pipeline takes them, optionally a fixed count.
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, type FieldSpec, field } from '../../config/spec.js';
import { sleep } from '../../engine/backoff.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { STOPPED } from '../../engine/errors.js';
import { type Batch, Message } from '../../message/message.js';
import { parseSchedule, type Schedule, scheduleProblems } from './generate_schedule.js';

/**
 * `interval` is a duration, a cron expression or empty, so not a plain duration field: the
 * factory receives the parsed schedule (null: as fast as possible) and lint checks it.
 */
const intervalField = {
  ...field.string(
    'interval',
    'How often to generate a batch: a duration, a cron expression, or empty for as fast as possible.',
    {
      default: '1s',
      examples: ['5s', '1m', '1h', '@every 1s', '0,30 */2 * * * *', 'TZ=Europe/London 30 3-6,20-23 * * *'],
    },
  ),
  parse: (text: string) => parseSchedule(text),
} as FieldSpec<'interval', string, Schedule | null>;

/** Generated messages have no source to redeliver from, so their acks do nothing. */
const ackNothing = async (): Promise<void> => {};

export class GenerateReader implements InputReader {
  private readonly stopped = new AbortController();
  /** What the mapping runs against: an empty message, as the reference's "no context". */
  private readonly empty: Batch = [new Message(new Uint8Array(0))];
  private remaining: number;
  private firstIsFree: boolean;

  constructor(
    private readonly mapping: Mapping,
    private readonly schedule: Schedule | null,
    /** 0 = generate forever. */
    private readonly count: number,
    private readonly batchSize: number,
  ) {
    this.remaining = count;
    this.firstIsFree = schedule?.firstIsFree ?? true;
  }

  async connect(): Promise<void> {}

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.stopped.signal.aborted) return null;
      let size = this.batchSize;
      if (this.count > 0) {
        if (this.remaining <= 0) return null;
        size = Math.min(size, this.remaining);
      }
      if (this.schedule !== null && !this.firstIsFree) {
        const wait = this.schedule.nextDelayMs(Date.now());
        if (!(await sleep(wait, this.stopped.signal))) return null;
      } else if (this.schedule !== null) {
        this.schedule.start(Date.now());
      }
      this.firstIsFree = false;

      const batch: Batch = [];
      for (let i = 0; i < size; i++) {
        const msg = this.mapping.apply(this.empty, 0);
        if (msg === null) continue; // root = deleted(): skipped, not counted
        if (this.count > 0) this.remaining--;
        batch.push(msg);
      }
      if (batch.length > 0) return { batch, ack: ackNothing };
      // Every message was deleted: try again (next tick), without starving the event loop.
      if (this.schedule === null) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    this.stopped.abort(STOPPED);
  }
}

export const spec = defineComponent({
  name: 'generate',
  kind: 'input',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Generates messages with a Bloblang mapping, on an interval, on a cron schedule or as fast as possible.',
  description: `The mapping runs without an input document, so it builds each message from functions and literals (\`uuid_v4()\`, \`now()\`, \`counter()\`, ...). A mapping that sets \`root = deleted()\` skips that message.

With \`count\` above zero the input stops after that many messages, which ends the stream once they are processed. \`interval\` takes a duration (\`5s\`; the first batch goes out at once), an empty string (as fast as the pipeline accepts them), or a cron expression (\`0,30 */2 * * * *\`, \`@every 1m\`, \`@hourly\`; seconds are optional and \`TZ=Europe/London\` in front sets the time zone, UTC otherwise).

Useful to trigger processors on a schedule (an SQL query every 5 minutes) or to produce test data.`,
  fields: [
    field.mapping('mapping', 'The Bloblang mapping that builds each message.', {
      examples: ['root = "hello world"', 'root = {"test":"message","id":uuid_v4()}'],
    }),
    intervalField,
    field.int('count', 'How many messages to generate before the input stops; 0 never stops.', {
      default: 0,
    }),
    field.int('batch_size', 'How many messages to generate into each batch.', { default: 1 }),
    field.bool(
      'auto_replay_nacks',
      'Whether batches rejected downstream are delivered again, indefinitely (pushing back on the input while the cause lasts). When false they are dropped instead.',
      { default: true },
    ),
  ],
  examples: [
    {
      title: 'Generate test data',
      config: `input:
  generate:
    count: 100
    interval: ''
    mapping: |
      root = if random_int() % 2 == 0 {
        {"type": "foo", "foo": "is yummy"}
      } else {
        {"type": "bar", "bar": "is gross"}
      }
output:
  stdout: {}
`,
    },
    {
      title: 'Trigger processing on a schedule',
      config: `input:
  generate:
    interval: '@every 5m'
    mapping: 'root = {}'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => scheduleProblems(config.interval),
  build: (config, ctx): Input => {
    const reader = new GenerateReader(
      // An empty mapping still runs (it yields an empty message); the field gives it as undefined.
      config.mapping ?? ctx.mapping('', 'mapping'),
      config.interval,
      config.count,
      Math.max(1, config.batch_size),
    );
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
