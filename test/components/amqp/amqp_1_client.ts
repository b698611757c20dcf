// The AMQP 1.0 tests' own client (rhea against the local RabbitMQ): sends messages the way another
// AMQP 1.0 producer would, and collects what nekton sent, with every section as decoded.
import rhea, { type Connection, type EventContext, type Message } from 'rhea';

export const AMQP1_HOST = { host: '127.0.0.1', port: 5672 };

/** One connection of the test itself (guest/guest, no reconnect). */
export async function openClient(): Promise<Connection> {
  const container = rhea.create_container();
  container.on('error', () => undefined);
  return new Promise<Connection>((resolve, reject) => {
    const connection = container.connect({
      ...AMQP1_HOST,
      username: 'guest',
      password: 'guest',
      reconnect: false,
    });
    connection.once('connection_open', () => resolve(connection));
    connection.once('connection_error', (ctx: EventContext) =>
      reject(ctx.error ?? new Error('connection error')),
    );
    connection.once('disconnected', (ctx: EventContext) => reject(ctx.error ?? new Error('disconnected')));
  });
}

/** Sends the messages to an address and resolves once the broker accepted every one. */
export async function sendAll(
  connection: Connection,
  address: string,
  messages: Partial<Message>[],
): Promise<void> {
  const sender = connection.open_sender({ target: { address } });
  await new Promise<void>((resolve, reject) => {
    let accepted = 0;
    let sent = 0;
    const pump = () => {
      while (sent < messages.length && sender.sendable()) sender.send(messages[sent++] as Message);
    };
    sender.on('sendable', pump);
    sender.on('accepted', () => {
      if (++accepted === messages.length) resolve();
    });
    for (const outcome of ['rejected', 'released', 'modified'])
      sender.on(outcome, () => reject(new Error(`test send ${outcome}`)));
    sender.on('sender_error', () => reject(new Error('test sender failed')));
  });
  sender.close();
}

/** Collects every message arriving at an address (accepted at once). */
export function collect(connection: Connection, address: string): Message[] {
  const got: Message[] = [];
  const receiver = connection.open_receiver({ source: { address }, credit_window: 100 });
  receiver.on('message', (ctx: EventContext) => {
    if (ctx.message) got.push(ctx.message);
  });
  return got;
}

/** The bytes of a received body (a data section or a string value) as text. */
export function bodyText(m: Message): string {
  const body = m.body as { typecode?: number; content?: Buffer } | string;
  if (typeof body === 'string') return body;
  return body?.content ? body.content.toString() : '';
}

/** A data-section body, as nekton's output sends with `content_type: opaque_binary`. */
export function data(text: string): unknown {
  return rhea.message.data_section(Buffer.from(text));
}
