// What every Redis output shares: one connection opened by connect() (the engine reconnects it
// with backoff when it is lost) and a pipelined send of a batch's commands.
import type { Logger } from 'pino';
import type { Interpolation } from '../../bloblang/index.js';
import type { BatchPolicyConfig } from '../../engine/batching.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import type { Batch } from '../../message/message.js';
import {
  type RedisArgument,
  type RedisClientConfig,
  RedisConnection,
  type RedisTarget,
  redisTarget,
} from './client.js';
import { bodyArgument } from './message_body.js';

/** Builds a Redis output: the writer made for the configured server, wrapped by the engine. */
export async function redisOutput(
  config: RedisClientConfig & { max_in_flight: number; batching?: BatchPolicyConfig },
  ctx: BuildContext,
  writer: (target: RedisTarget) => OutputWriter,
): Promise<Output> {
  const target = await redisTarget(config);
  return ctx.wrapWriter(writer(target), { maxInFlight: config.max_in_flight, batching: config.batching });
}

export abstract class RedisWriterConnection {
  protected connection: RedisConnection | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    protected readonly target: RedisTarget,
    protected readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    this.connection?.destroy();
    this.connection = null;
    const connection = await RedisConnection.open(this.target, this.logger);
    // Closed while connecting: a connection kept now would hold the process open.
    if (this.closed) connection.destroy();
    else {
      this.connection = connection;
      connection.onLost((err) => {
        // Only the current connection's loss matters (connect() replaces and destroys old ones).
        if (this.connection === connection && !this.closed)
          this.lost.report(new Error(`redis at ${this.target.address}: ${err.message}`));
      });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    await connection?.close();
  }

  /** The open connection, or NotConnectedError so the engine reconnects first. */
  protected current(): RedisConnection {
    const connection = this.connection;
    if (!connection || connection.lost)
      throw new NotConnectedError(`redis at ${this.target.address}: not connected`);
    return connection;
  }

  /** `command key content` per message, `key` rendered for each, in one round trip. */
  protected sendEach(command: string, key: Interpolation, batch: Batch): Promise<void> {
    return this.sendAll(batch.map((msg, i) => [command, key.render(batch, i), bodyArgument(msg)]));
  }

  /**
   * Sends the commands in one round trip (they are issued in the same tick, which the client
   * pipelines) and waits for every reply; throws the first failure, so the batch is retried.
   * `failedOut`, when given, receives the indices of the commands that failed.
   */
  protected async sendAll(commands: RedisArgument[][], failedOut?: number[]): Promise<void> {
    const connection = this.current();
    if (commands.length === 0) return;
    // One promise for the lot and a counter, rather than a settled-result object per command.
    await new Promise<void>((resolve, reject) => {
      let left = commands.length;
      let failed = false;
      let failure: unknown;
      const done = () => {
        if (--left !== 0) return;
        if (failed) reject(failure);
        else resolve();
      };
      const fail = (err: unknown) => {
        if (!failed) {
          failed = true;
          failure = err;
        }
        done();
      };
      if (!failedOut) {
        for (const args of commands) connection.send(args).then(done, fail);
        return;
      }
      for (let i = 0; i < commands.length; i++) {
        connection.send(commands[i]!).then(done, (err: unknown) => {
          failedOut.push(i);
          fail(err);
        });
      }
    });
  }
}
