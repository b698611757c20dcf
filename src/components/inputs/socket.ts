// The `socket` input: connects to a tcp or unix socket (optionally over TLS) and splits what the
// server sends into messages with a scanner; reconnects when the server closes the connection.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Mapping } from '../../bloblang/index.js';
import { defineComponent, type FieldSpec, field } from '../../config/spec.js';
import type { Input, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { parseListenAddress } from '../../listener/address.js';
import { Message } from '../../message/message.js';
import { type TlsConfig, tlsField, tlsOptions } from '../fields/tls.js';
import type { Scanner } from '../scanners/scanner.js';
import { scannerFields, scannerResolver } from './scanner_fields.js';
import { BoundedMessageQueue, pumpScanned } from './socket_stream.js';

const QUEUE_CAPACITY = 1024;
const CONNECT_TIMEOUT_MS = 10_000;

/** The open message: what the mapping gives, which must be a non-empty string. */
export function openMessage(mapping: Mapping): string {
  const result = mapping.query([new Message(null)], 0);
  if (typeof result !== 'string') {
    throw new Error(
      `open message mapping returned non-string result: ${result === null ? 'null' : typeof result}`,
    );
  }
  if (result === '') throw new Error('open message mapping returned empty string');
  return result;
}

interface Connection {
  socket: Socket;
  queue: BoundedMessageQueue;
  /** Why the connection ended; set once its bytes are all scanned. */
  ended: Error | null | undefined;
}

export class SocketReader implements InputReader {
  private connection: Connection | null = null;
  private closed = false;

  constructor(
    private readonly network: 'tcp' | 'unix',
    private readonly address: string,
    private readonly scanner: Scanner,
    private readonly tls: TlsConfig,
    private readonly openMapping: Mapping | undefined,
  ) {}

  async connect(): Promise<void> {
    if (this.connection) return;
    const tls = await tlsOptions(this.tls);
    const socket = await this.dial(tls);
    if (this.closed) {
      socket.destroy();
      throw new Error('socket: input closed');
    }
    socket.on('error', () => undefined);
    if (this.openMapping) {
      let text: string;
      try {
        text = openMessage(this.openMapping);
      } catch (err) {
        socket.destroy();
        throw err;
      }
      await new Promise<void>((resolve, reject) =>
        socket.write(text, (err) =>
          err ? reject(new Error(`failed to write open message: ${err.message}`)) : resolve(),
        ),
      ).catch((err: unknown) => {
        socket.destroy();
        throw err;
      });
    }
    const connection: Connection = {
      socket,
      queue: new BoundedMessageQueue(QUEUE_CAPACITY),
      ended: undefined,
    };
    this.connection = connection;
    void pumpScanned(socket, this.scanner, connection.queue).then((err) => {
      connection.ended = err;
      connection.queue.finish();
      socket.destroy();
    });
  }

  async read(): Promise<Transaction | null> {
    const connection = this.connection;
    if (!connection) throw new NotConnectedError(`socket ${this.address}: not connected`);
    const txn = await connection.queue.next();
    if (txn) return txn;
    if (this.closed) return null;
    // Every message of the connection was read: reconnect, as the reference does.
    if (this.connection === connection) this.connection = null;
    const why = connection.ended ? errorMessage(connection.ended) : 'connection closed by the server';
    throw new NotConnectedError(`socket ${this.address}: ${why}`);
  }

  readBuffered(): Transaction | undefined {
    return this.connection?.queue.nextBuffered();
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    connection?.queue.end();
    connection?.socket.destroy();
  }

  private dial(tls: Awaited<ReturnType<typeof tlsOptions>>): Promise<Socket> {
    const where = `${this.network} ${this.address}`;
    const target =
      this.network === 'unix'
        ? { path: this.address }
        : (() => {
            const { host, port } = parseListenAddress(this.address);
            return { host: host ?? 'localhost', port };
          })();
    return new Promise<Socket>((resolve, reject) => {
      const socket = tls
        ? tlsConnect({ ...target, ...tls }, () => resolve(socket))
        : netConnect(target, () => resolve(socket));
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy(new Error('connect timed out')));
      socket.once('error', (err) => reject(new Error(`socket: cannot connect to ${where}: ${err.message}`)));
      socket.once(tls ? 'secureConnect' : 'connect', () => socket.setTimeout(0));
    });
  }
}

export const spec = defineComponent({
  name: 'socket',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Connects to a tcp or unix socket and consumes a continuous stream of messages.',
  description: `What the server sends is split into messages by the \`scanner\` (one message per line by default). When the server closes the connection, or it drops, every whole message already received is delivered and the input connects again with backoff.

With \`open_message_mapping\` the string the mapping gives is sent to the server once connected, before reading (a login line, a subscription). A socket cannot be told that a message failed, so with \`auto_replay_nacks\` (the default) failed messages are retried inside nekton. At most 1024 scanned messages wait to be read; beyond that the socket is not read, so TCP slows the server down.`,
  fields: [
    field.enum('network', 'A network type to assume.', ['unix', 'tcp']),
    field.string('address', 'The address to connect to.', {
      examples: ['/tmp/benthos.sock', '127.0.0.1:6000'],
    }),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of dropping them.', {
      default: true,
    }),
    field.mapping(
      'open_message_mapping',
      'A Bloblang mapping giving a string to send to the server once connected, before reading.',
      { optional: true, examples: ['root = "username,password"'] },
    ),
    tlsField() as FieldSpec<'tls', TlsConfig>,
    ...scannerFields(),
  ],
  examples: [
    {
      title: 'Subscribe with an open message, then read lines',
      config: `input:
  socket:
    network: tcp
    address: 127.0.0.1:6000
    open_message_mapping: 'root = "SUBSCRIBE prices\\n"'
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    if (config.network !== 'tcp') return [];
    try {
      parseListenAddress(config.address);
      return [];
    } catch (err) {
      return [errorMessage(err)];
    }
  },
  async build(config, ctx): Promise<Input> {
    const scanner = await (await scannerResolver(config, ctx, `${ctx.path}.socket`))('');
    const reader = new SocketReader(
      config.network,
      config.address,
      scanner,
      config.tls,
      config.open_message_mapping,
    );
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
