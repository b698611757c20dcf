// The `beanstalkd` input: reserves jobs from the default tube, deletes a job once its message is
// delivered and releases it when delivery fails, so beanstalkd hands it out again.
import type { Logger } from 'pino';
import { defineComponent } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import { BeanstalkdConnection, BeanstalkdReplyError, type Job } from '../beanstalkd/client.js';
import { addressField, lintAddress } from '../beanstalkd/fields.js';

/** How long a reserve blocks on the server while this reader holds no job (whole seconds). */
const RESERVE_WAIT_S = 1;
/**
 * While jobs are held, reserves do not block: beanstalkd answers a connection's commands in order,
 * so a delete sent behind a blocking reserve would wait for it. Empty polls are this far apart.
 */
const POLL_MS = 50;
/** The priority (and delay) a nacked job is released with, as the reference releases it. */
const RELEASE_PRIORITY = 2;

/** A job handed out and not yet settled, on the connection that reserved it. */
interface Held {
  id: string;
  connection: BeanstalkdConnection;
}

export class BeanstalkdReader implements InputReader {
  private connection: BeanstalkdConnection | null = null;
  private closed = false;
  private readonly held = new Set<Held>();
  /** Ends the pause between polls early (a job settled, or the reader closed). */
  private wake: (() => void) | null = null;

  constructor(
    private readonly address: string,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    this.connection?.destroy();
    this.connection = null;
    // Jobs of a dropped connection are back in the ready queue: they are no longer ours to touch.
    this.held.clear();
    const connection = await BeanstalkdConnection.open(this.address);
    if (this.closed) connection.destroy();
    else this.connection = connection;
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const connection = this.connection;
      if (!connection || connection.lost)
        throw new NotConnectedError(
          `beanstalkd at ${this.address}: ${connection?.lost?.message ?? 'not connected'}`,
        );
      const holding = this.held.size > 0;
      let reply: Job | 'TIMED_OUT' | 'DEADLINE_SOON';
      try {
        reply = await connection.reserve(holding ? 0 : RESERVE_WAIT_S);
      } catch (err) {
        if (this.closed) return null;
        throw err;
      }
      if (typeof reply === 'object') return this.transaction(connection, reply);
      // A held job is close to its time-to-run: nekton still has it, so keep it reserved rather
      // than let beanstalkd hand it to another worker.
      if (reply === 'DEADLINE_SOON') this.touchHeld(connection);
      if (holding || reply === 'DEADLINE_SOON') await this.pause();
    }
  }

  private transaction(connection: BeanstalkdConnection, job: Job): Transaction {
    const held: Held = { id: job.id, connection };
    this.held.add(held);
    let settled = false;
    const ack = async (err: Error | null): Promise<void> => {
      if (settled) return;
      settled = true;
      this.held.delete(held);
      if (this.held.size === 0) this.wake?.();
      const current = this.connection;
      if (!current || current.lost) {
        // The server put the job back in the ready queue when the connection dropped.
        throw new Error(
          `beanstalkd job ${job.id} not settled: not connected, the job will be delivered again`,
        );
      }
      if (!err) {
        // A job from an earlier connection is ready again; deleting it still spares a duplicate.
        await current.delete(job.id);
      } else if (current === connection) {
        // NOT_FOUND: no longer reserved by this connection (its time-to-run ran out), so it is
        // back in the tube already.
        await current.release(job.id, RELEASE_PRIORITY, 0).catch((e: unknown) => {
          if (!(e instanceof BeanstalkdReplyError && e.reply === 'NOT_FOUND')) throw e;
        });
      }
    };
    return { batch: [new Message(job.body)], ack };
  }

  private touchHeld(connection: BeanstalkdConnection): void {
    for (const held of this.held) {
      if (held.connection !== connection) continue;
      connection.touch(held.id).catch((err: unknown) => {
        this.logger.debug(`beanstalkd touch ${held.id}: ${String(err)}`);
      });
    }
  }

  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      const self = this;
      function done() {
        clearTimeout(timer);
        if (self.wake === done) self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    // A reserve in progress holds the connection; jobs reserved and not handed out return to ready.
    this.connection?.destroy();
    this.connection = null;
  }
}

export const spec = defineComponent({
  name: 'beanstalkd',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary: 'Reads messages from a Beanstalkd queue.',
  description:
    'Reserves jobs from the `default` tube, as the reference does. A job is deleted once its message has been delivered by the output, and released back to the tube (priority 2, no delay) when delivery fails, so it is reserved again. A job nekton holds when it stops abruptly or loses its connection is put back in the ready queue by beanstalkd itself: delivery is at least once.\n\n' +
    "While a message is in the pipeline its job stays reserved: when beanstalkd warns that the job's time-to-run is about to run out (`DEADLINE_SOON`), nekton touches it so it is not handed to another worker meanwhile.",
  fields: [addressField()],
  lint: (config) => lintAddress(config.address),
  examples: [
    {
      title: 'Work off a Beanstalkd queue',
      config: `input:
  beanstalkd:
    address: 127.0.0.1:11300
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx): Input => ctx.wrapReader(new BeanstalkdReader(config.address, ctx.logger)),
});
