// The `beanstalkd` output: puts each message as a job into the default tube.
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { BatchError } from '../../engine/batch_error.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch } from '../../message/message.js';
import { BeanstalkdConnection } from '../beanstalkd/client.js';
import { addressField, lintAddress } from '../beanstalkd/fields.js';

/** What every job is put with, as the reference puts it: priority 2, no delay, 2 s to run. */
const PRIORITY = 2;
const DELAY_S = 0;
const TTR_S = 2;

export class BeanstalkdWriter implements OutputWriter {
  private connection: BeanstalkdConnection | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    private readonly address: string,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    this.connection?.destroy();
    this.connection = null;
    const connection = await BeanstalkdConnection.open(this.address);
    // Closed while connecting: a connection kept now would hold the process open.
    if (this.closed) {
      connection.destroy();
      return;
    }
    this.connection = connection;
    connection.onLost((err) => {
      // Only the current connection's loss matters (connect() replaces and destroys old ones).
      if (this.connection === connection && !this.closed)
        this.lost.report(new Error(`beanstalkd at ${this.address}: ${err.message}`));
    });
  }

  async write(batch: Batch): Promise<void> {
    const connection = this.connection;
    if (!connection || connection.lost)
      throw new NotConnectedError(
        `beanstalkd at ${this.address}: ${connection?.lost?.message ?? 'not connected'}`,
      );
    // Every put goes out at once (pipelined); a message whose put failed is sent again, not the batch.
    const results = await Promise.allSettled(
      batch.map((msg) => connection.put(msg.bytes(), PRIORITY, DELAY_S, TTR_S)),
    );
    const failed: number[] = [];
    let reason: unknown;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') return;
      failed.push(i);
      reason ??= result.reason;
    });
    if (failed.length === 0) return;
    const error = reason instanceof Error ? reason : new Error(errorMessage(reason));
    this.logger.debug(`beanstalkd put failed for ${failed.length} of ${batch.length}: ${error.message}`);
    if (failed.length === batch.length) throw error;
    throw new BatchError(batch, failed, error);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection?.destroy();
    this.connection = null;
  }
}

export const spec = defineComponent({
  name: 'beanstalkd',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Write messages to a Beanstalkd queue.',
  description:
    "Puts each message as a job into the `default` tube with priority 2, no delay and a time-to-run of 2 seconds, as the reference does. A write fails when beanstalkd refuses the job (for example `JOB_TOO_BIG` beyond the server's `-z` limit, or `DRAINING`), and the message is retried; a lost connection is reconnected with backoff.",
  fields: [
    addressField(),
    field.int(
      'max_in_flight',
      'The maximum number of messages to have in flight at a given time. Increase to improve throughput.',
      {
        default: 64,
      },
    ),
  ],
  lint: (config) => lintAddress(config.address),
  examples: [
    {
      title: 'Queue messages as Beanstalkd jobs',
      config: `input:
  generate:
    count: 10
    interval: ''
    mapping: 'root = {"n": counter()}'
output:
  beanstalkd:
    address: 127.0.0.1:11300
`,
    },
  ],
  build: (config, ctx): Output =>
    ctx.wrapWriter(new BeanstalkdWriter(config.address, ctx.logger), { maxInFlight: config.max_in_flight }),
});
