// What the AMQP tests ask RabbitMQ itself (through rabbitmqctl): counts the client cannot see.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

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
