// The `socket` output: writes messages to a tcp, udp or unix socket, delimited by a codec.
import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { defineComponent, type FieldSpec, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';
import { LostConnection } from '../../engine/lost_connection.js';
import { parseListenAddress } from '../../listener/address.js';
import type { Batch } from '../../message/message.js';
import { type TlsConfig, tlsField, tlsOptions } from '../fields/tls.js';
import {
  encodeMessages,
  OUTPUT_CODEC_OPTIONS,
  type OutputCodec,
  outputCodecField,
  outputCodecProblems,
} from './codec.js';

const CONNECT_TIMEOUT_MS = 10_000;

export class SocketWriter implements OutputWriter {
  private socket: Socket | null = null;
  private datagrams: DatagramSocket | null = null;
  private closed = false;
  private readonly lost = new LostConnection();
  readonly onConnectionLost = this.lost.listen;

  constructor(
    private readonly network: 'tcp' | 'udp' | 'unix',
    private readonly address: string,
    private readonly codec: OutputCodec,
    private readonly tls: TlsConfig,
  ) {}

  async connect(): Promise<void> {
    this.drop();
    if (this.network === 'udp') {
      const { host } = parseListenAddress(this.address);
      this.datagrams = createSocket(host?.includes(':') ? 'udp6' : 'udp4');
      this.datagrams.on('error', () => undefined);
      return;
    }
    const tls = await tlsOptions(this.tls);
    const where = `${this.network} ${this.address}`;
    const target =
      this.network === 'unix'
        ? { path: this.address }
        : (() => {
            const { host, port } = parseListenAddress(this.address);
            return { host: host ?? 'localhost', port };
          })();
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = tls
        ? tlsConnect({ ...target, ...tls }, () => resolve(s))
        : netConnect(target, () => resolve(s));
      s.setTimeout(CONNECT_TIMEOUT_MS, () => s.destroy(new Error('connect timed out')));
      s.once('error', (err) => reject(new Error(`socket: cannot connect to ${where}: ${err.message}`)));
    });
    socket.setTimeout(0);
    if (this.closed) {
      socket.destroy();
      throw new Error('socket: output closed');
    }
    // Errors show on the next write as a closed socket; never unhandled.
    socket.on('error', () => undefined);
    // The server may send nothing back; what it sends is discarded so it cannot fill a buffer.
    socket.resume();
    socket.once('close', () => {
      if (this.socket === socket && !this.closed)
        this.lost.report(new Error(`socket ${where}: connection closed`));
    });
    this.socket = socket;
  }

  async write(batch: Batch): Promise<void> {
    if (this.datagrams) {
      const { host, port } = parseListenAddress(this.address);
      const datagrams = this.datagrams;
      // One datagram per message, delimiter included.
      for (const msg of batch) {
        const payload = encodeMessages([msg], this.codec);
        await new Promise<void>((resolve, reject) =>
          datagrams.send(payload, port, host ?? 'localhost', (err) =>
            err ? reject(new Error(`socket udp ${this.address}: ${errorMessage(err)}`)) : resolve(),
          ),
        );
      }
      return;
    }
    const socket = this.socket;
    if (!socket || socket.destroyed || !socket.writable) {
      this.drop();
      throw new NotConnectedError(`socket ${this.address}: not connected`);
    }
    const payload = encodeMessages(batch, this.codec);
    await new Promise<void>((resolve, reject) =>
      socket.write(payload, (err) =>
        err ? reject(new NotConnectedError(`socket ${this.address}: ${errorMessage(err)}`)) : resolve(),
      ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    this.socket = null;
    if (socket && !socket.destroyed) await new Promise<void>((resolve) => socket.end(() => resolve()));
    socket?.destroy();
    this.datagrams?.close();
    this.datagrams = null;
  }

  private drop(): void {
    this.socket?.destroy();
    this.socket = null;
    this.datagrams?.close();
    this.datagrams = null;
  }
}

export const spec = defineComponent({
  name: 'socket',
  kind: 'output',
  status: 'stable',
  categories: ['Network'],
  summary:
    'Connects to a (tcp, udp or unix) server and sends a continuous stream of data, divided by a codec.',
  description: `A write is done once its bytes were handed to the socket: a stream socket has no acknowledgement, so bytes sent just before the connection drops can be lost. A lost connection makes nekton reconnect with backoff and the batch is written again. Over \`udp\` each message (with its delimiter) is one datagram. The \`tls\` settings apply to \`tcp\`.

\`codec\`: \`lines\` ends each message with a newline (unless it ends with one), \`delim:x\` with \`x\`, \`append\` and \`all-bytes\` add nothing.`,
  fields: [
    field.enum('network', 'The network type to connect to.', ['unix', 'tcp', 'udp']),
    field.string('address', 'The address (or socket path) to connect to.', {
      examples: ['/tmp/benthos.sock', '127.0.0.1:6000'],
    }),
    outputCodecField('How messages are delimited in the stream.', {
      default: 'lines',
      options: OUTPUT_CODEC_OPTIONS,
      examples: ['lines', 'delim:\t', 'delim:foobar'],
    }),
    tlsField() as FieldSpec<'tls', TlsConfig>,
  ],
  examples: [
    {
      title: 'Lines to a TCP server',
      config: `input:
  stdin: {}
output:
  socket:
    network: tcp
    address: 127.0.0.1:6000
`,
    },
  ],
  lint: (config) => {
    const problems = outputCodecProblems(config.codec);
    if (config.network !== 'unix') {
      try {
        parseListenAddress(config.address);
      } catch (err) {
        problems.push(errorMessage(err));
      }
    }
    return problems;
  },
  build: (config, ctx): Output =>
    ctx.wrapWriter(new SocketWriter(config.network, config.address, config.codec, config.tls)),
});
