// The `redis_scan` input: walks the keys of the selected database with SCAN (optionally only
// those matching a glob pattern) and emits each key with its value, then ends.
import type { Logger } from 'pino';
import { type ConfigOf, defineComponent, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { NotConnectedError } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import {
  isReplyError,
  lintRedisClient,
  RedisConnection,
  type RedisTarget,
  redisClientFields,
} from '../redis/client.js';
import { redisInput } from '../redis/input.js';

const fields = [
  ...redisClientFields(),
  field.bool(
    'auto_replay_nacks',
    'Whether messages that are rejected (nacked) at the output level should be automatically replayed indefinitely, eventually resulting in back pressure if the cause of the rejections is persistent. If set to `false` these messages will instead be deleted. Disabling auto replays can greatly improve memory efficiency of high throughput streams as the original shape of the data can be discarded immediately upon consumption and mutation.',
    { default: true },
  ),
  field.string(
    'match',
    'Iterates only keys matching this glob-style pattern. Empty (the default) matches every key.',
    { default: '', examples: ['*', '1*', 'foo*', 'foo', '*4*'] },
  ),
] as const;

type RedisScanConfig = ConfigOf<typeof fields>;

export class RedisScanReader implements InputReader {
  private connection: RedisConnection | null = null;
  private closed = false;
  /** The SCAN cursor of the next call; SCAN cursors are stateless, so a reconnect resumes here. */
  private cursor = '0';
  private started = false;
  /** The server process the cursor belongs to (INFO's run_id). */
  private runId: string | null = null;
  /** Keys returned by the last SCAN and not yet read. */
  private readonly pending: string[] = [];

  constructor(
    private readonly config: RedisScanConfig,
    private readonly target: RedisTarget,
    private readonly logger: Logger,
  ) {}

  async connect(): Promise<void> {
    this.connection?.destroy();
    this.connection = null;
    const connection = await RedisConnection.open(this.target, this.logger);
    if (this.closed) {
      connection.destroy();
      return;
    }
    // A cursor is only good on the server process that gave it (a restarted server hashes keys
    // with a new seed): after a restart the scan starts over, delivering some keys again.
    const info = await connection.send<string>(['INFO', 'server']).catch(() => '');
    const runId = /run_id:(\w+)/.exec(String(info))?.[1] ?? null;
    // A cluster client's cursor is its own token over every node's scan: a new client cannot resume it.
    const restarted = this.target.kind === 'cluster' || (this.runId !== null && runId !== this.runId);
    if (restarted && this.started) {
      this.logger.warn('redis_scan: the server restarted, scanning again from the start');
      this.cursor = '0';
      this.started = false;
    }
    this.runId = runId;
    this.connection = connection;
  }

  async read(): Promise<Transaction | null> {
    for (;;) {
      if (this.closed) return null;
      const connection = this.connection;
      if (!connection || connection.lost)
        throw new NotConnectedError(`redis_scan: not connected to ${this.target.address}`);
      const key = this.pending.shift();
      if (key === undefined) {
        // The scan is over once the server hands back cursor 0 (after the first call).
        if (this.started && this.cursor === '0') return null;
        await this.scan(connection);
        continue;
      }
      let value: string | null;
      try {
        value = await connection.send<string | null>(['GET', key]);
      } catch (err) {
        if (isReplyError(err)) {
          // Not a string (a list, hash...): GET cannot read it; the scan moves on.
          this.logger.warn(`redis_scan: skipping key ${key}: ${(err as Error).message}`);
          continue;
        }
        // Lost connection: read this key again after reconnecting.
        this.pending.unshift(key);
        throw err;
      }
      // Deleted since the scan saw it.
      if (value === null) continue;
      const msg = new Message(new Uint8Array(0));
      msg.setStructured({ key, value });
      return { batch: [msg], ack: async () => undefined };
    }
  }

  private async scan(connection: RedisConnection): Promise<void> {
    const args = ['SCAN', this.cursor];
    if (this.config.match !== '') args.push('MATCH', this.config.match);
    const reply = await connection.send<[string, string[]]>(args);
    this.started = true;
    this.cursor = String(reply[0]);
    this.pending.push(...reply[1]);
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    await connection?.close();
  }
}

export const spec = defineComponent({
  name: 'redis_scan',
  kind: 'input',
  status: 'stable',
  categories: ['Services'],
  summary:
    'Scans the set of keys in the current selected database and gets their values, using the Scan and Get commands.',
  description:
    'Optionally, iterates only keys matching a glob-style pattern (`match`): `*foo*` iterates only keys which contain `foo`, `foo*` only keys starting with `foo`.\n\n' +
    'Each key with a string value becomes one message of the form `{"key":"foo","value":"bar"}`; keys of other types (lists, hashes...) are skipped with a warning, and keys deleted during the scan are skipped. The input ends when the scan is complete.\n\n' +
    'SCAN guarantees that a key present for the whole scan is returned at least once (Redis may return a key twice while the keyspace is rehashed). After a lost connection the scan resumes from its last cursor instead of starting over; when the server itself restarted (a new `run_id`) the cursor means nothing any more and the scan starts over, so keys already delivered come again (at least once).',
  fields,
  lint: lintRedisClient,
  examples: [
    {
      title: 'Copy the keys starting with `user:`',
      config: `input:
  redis_scan:
    url: redis://127.0.0.1:6379
    match: 'user:*'
output:
  stdout: {}
`,
    },
  ],
  build: (config, ctx: BuildContext): Promise<Input> =>
    redisInput(config, ctx, (target) => new RedisScanReader(config, target, ctx.logger)),
});
