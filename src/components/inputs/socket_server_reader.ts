// The listener of the `socket_server` input: accepts tcp, tls and unix connections (or udp
// datagrams) and scans each connection into one bounded queue. A connection that resets, sends
// garbage or a message over the scanner's limit is dropped alone; the listener goes on.
import { createSocket, type Socket as DatagramSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import type { InputReader, Transaction } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { parseListenAddress } from '../../listener/address.js';
import type { Scanner } from '../scanners/scanner.js';
import { selfSignedCertificate } from './self_signed.js';
import { BoundedMessageQueue, PushedBytes, pumpScanned } from './socket_stream.js';

/** Messages scanned but not yet read, across all connections. */
const QUEUE_CAPACITY = 1024;
/** Datagrams waiting to be scanned; more are dropped (UDP cannot be slowed down). */
const DATAGRAM_CAPACITY = 4096;

export type ClientAuth = 'no' | 'request' | 'require_any' | 'require_valid' | 'verify_if_given';

export interface SocketServerOptions {
  network: 'tcp' | 'unix' | 'tls' | 'udp';
  address: string;
  scanner: Scanner;
  logger: Logger;
  tls?: { certFile?: string; keyFile?: string; selfSigned: boolean; clientAuth: ClientAuth };
  /** Called with the bound address once listening (address_cache). */
  onListening?: (address: string) => Promise<void>;
}

export class SocketServerReader implements InputReader {
  private readonly queue = new BoundedMessageQueue(QUEUE_CAPACITY);
  private server: Server | null = null;
  private datagrams: DatagramSocket | null = null;
  /** Sockets being scanned. */
  private readonly sockets = new Set<Socket>();
  /** Every accepted socket still open (TLS: the raw one). */
  private readonly connections = new Set<Socket>();
  private closed = false;
  private droppedDatagrams = 0;

  constructor(private readonly options: SocketServerOptions) {}

  async connect(): Promise<void> {
    if (this.server || this.datagrams) return;
    const { network } = this.options;
    const bound = network === 'udp' ? await this.listenUdp() : await this.listenStream();
    this.options.logger.info(`Receiving ${network} socket messages from address: ${bound}`);
    await this.options.onListening?.(bound);
  }

  /** Scanned messages waiting to be read (bounded). */
  get waiting(): number {
    return this.queue.size;
  }

  /** Bytes read from the connections open now. */
  get bytesRead(): number {
    let n = 0;
    for (const socket of this.sockets) n += socket.bytesRead;
    return n;
  }

  read(): Promise<Transaction | null> {
    return this.queue.next();
  }

  readBuffered(): Transaction | undefined {
    return this.queue.nextBuffered();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.end();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    const datagrams = this.datagrams;
    this.datagrams = null;
    if (datagrams) await new Promise<void>((resolve) => datagrams.close(() => resolve()));
  }

  /** The address as Go prints it: `host:port` (`[v6]:port`), or the unix path. */
  private static describe(info: AddressInfo | string | null, fallback: string): string {
    if (!info) return fallback;
    if (typeof info === 'string') return info;
    return info.family === 'IPv6' ? `[${info.address}]:${info.port}` : `${info.address}:${info.port}`;
  }

  private async listenStream(): Promise<string> {
    const { network, address } = this.options;
    const server = network === 'tls' ? await this.tlsServer() : createServer();
    // Every accepted socket is tracked from the start (a TLS one in its handshake too), so close()
    // can end them all: server.close() waits for every connection.
    server.on('connection', (socket: Socket) => {
      if (this.closed) {
        socket.destroy();
        return;
      }
      this.connections.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => this.connections.delete(socket));
    });
    const onConnection = (socket: Socket) => this.serve(socket);
    if (network === 'tls') server.on('secureConnection', onConnection);
    else server.on('connection', onConnection);
    // A failed handshake or an accept error concerns one client, never the listener.
    server.on('tlsClientError', (err: Error) =>
      this.options.logger.debug(`socket_server: TLS handshake failed: ${errorMessage(err)}`),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      if (network === 'unix') server.listen(address, resolve);
      else {
        const { host, port } = parseListenAddress(address);
        server.listen({ host, port }, resolve);
      }
    }).catch((err: unknown) => {
      server.close();
      throw new Error(`socket_server: cannot listen on ${network} ${address}: ${errorMessage(err)}`);
    });
    server.on('error', (err) => this.options.logger.error(`socket_server ${address}: ${errorMessage(err)}`));
    if (this.closed) {
      server.close();
      throw new Error('socket_server: input closed');
    }
    this.server = server;
    return SocketServerReader.describe(server.address(), address);
  }

  private async tlsServer(): Promise<Server> {
    const tls = this.options.tls;
    let cert: string | Buffer;
    let key: string | Buffer;
    if (tls?.certFile && tls.keyFile) {
      cert = await readFile(tls.certFile);
      key = await readFile(tls.keyFile);
    } else if (tls?.selfSigned) {
      ({ cert, key } = selfSignedCertificate());
    } else {
      throw new Error('socket_server: must specify either a certificate file or enable self signed');
    }
    const auth = tls?.clientAuth ?? 'no';
    return createTlsServer({
      cert,
      key,
      requestCert: auth !== 'no',
      rejectUnauthorized: auth === 'require_valid',
    });
  }

  private serve(socket: Socket): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    const auth = this.options.tls?.clientAuth;
    if (auth === 'require_any' || auth === 'verify_if_given') {
      const tlsSocket = socket as TLSSocket;
      const presented = Object.keys(tlsSocket.getPeerCertificate() ?? {}).length > 0;
      if (
        (auth === 'require_any' && !presented) ||
        (auth === 'verify_if_given' && presented && !tlsSocket.authorized)
      ) {
        socket.destroy();
        return;
      }
    }
    this.sockets.add(socket);
    // Errors end the iteration below; this listener only keeps them from being unhandled.
    socket.on('error', () => undefined);
    void pumpScanned(socket, this.options.scanner, this.queue).then((err) => {
      this.sockets.delete(socket);
      socket.destroy();
      if (err && !this.closed) this.options.logger.error(`Connection dropped due to: ${errorMessage(err)}`);
    });
  }

  private async listenUdp(): Promise<string> {
    const { host, port } = parseListenAddress(this.options.address);
    const socket = createSocket(host?.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, host, () => {
        socket.off('error', reject);
        resolve();
      });
    }).catch((err: unknown) => {
      socket.close();
      throw new Error(`socket_server: cannot listen on udp ${this.options.address}: ${errorMessage(err)}`);
    });
    socket.on('error', (err) => this.options.logger.error(`socket_server udp: ${errorMessage(err)}`));
    // One stream across datagrams, as the reference reads them: a line may span datagrams.
    const bytes = new PushedBytes(DATAGRAM_CAPACITY);
    socket.on('message', (datagram) => {
      if (bytes.offer(datagram)) return;
      if (this.droppedDatagrams++ % 1000 === 0)
        this.options.logger.warn(
          `socket_server udp: ${this.droppedDatagrams} datagrams dropped: reading is too slow`,
        );
    });
    socket.once('close', () => bytes.end());
    // A scanner failure (a message over its limit) drops what it held and scanning starts again.
    const pump = (): void => {
      void pumpScanned(bytes, this.options.scanner, this.queue).then((err) => {
        if (!err || this.closed) return;
        this.options.logger.error(`Connection dropped due to: ${errorMessage(err)}`);
        pump();
      });
    };
    pump();
    this.datagrams = socket;
    return SocketServerReader.describe(socket.address(), this.options.address);
  }
}
