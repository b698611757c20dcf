// What the AMQP tests ask RabbitMQ itself (through rabbitmqctl): counts the client cannot see.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Channel, type ChannelModel, connect } from 'amqplib';
import { AMQP_URL } from '../../helpers/kit.js';

/** Ready + unacknowledged messages of a queue (RabbitMQ counts both only via the CLI). */
export async function messagesIn(q: string): Promise<{ ready: number; unacked: number }> {
  const { stdout } = await promisify(execFile)('rabbitmqctl', [
    'list_queues',
    'name',
    'messages_ready',
    'messages_unacknowledged',
    '-q',
    '--no-table-headers',
  ]);
  const line = stdout.split('\n').find((l) => l.split('\t')[0] === q);
  const [, ready, unacked] = (line ?? '').split('\t');
  return { ready: Number(ready), unacked: Number(unacked) };
}

export { AMQP_URL };

/** A test file's own connection to RabbitMQ: declares uniquely named queues and exchanges, deletes them at the end. */
export class RabbitFixtures {
  private readonly queues: string[] = [];
  private readonly exchanges: string[] = [];

  private constructor(
    readonly admin: ChannelModel,
    readonly channel: Channel,
    /** The unique name of a test's queue or exchange. */
    readonly name: (what: string) => string,
  ) {}

  /** null when RabbitMQ is unreachable (each test then reports it through requireService). */
  static async open(name: (what: string) => string): Promise<RabbitFixtures | null> {
    try {
      const admin = await connect(AMQP_URL);
      return new RabbitFixtures(admin, await admin.createChannel(), name);
    } catch {
      return null;
    }
  }

  async queue(what: string, args: Record<string, unknown> = {}): Promise<string> {
    const q = this.name(what);
    await this.channel.assertQueue(q, { durable: false, arguments: args });
    this.queues.push(q);
    return q;
  }

  async exchange(what: string): Promise<string> {
    const x = this.name(what);
    await this.channel.assertExchange(x, 'direct', { durable: false });
    this.exchanges.push(x);
    return x;
  }

  async close(): Promise<void> {
    for (const q of this.queues) await this.channel.deleteQueue(q).catch(() => undefined);
    for (const x of this.exchanges) await this.channel.deleteExchange(x).catch(() => undefined);
    await this.admin.close();
  }
}
