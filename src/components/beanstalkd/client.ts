// A small client for beanstalkd's text protocol (protocol.txt of beanstalkd 1.x): one TCP
// connection, commands pipelined in the order they are sent, each reply matched to the oldest
// command still waiting. Written here rather than taken from npm: the maintained-looking clients
// either never settle commands pending on a dropped connection or crash on a socket error after
// connect (docs/notes/beanstalkd.md). The connection never reconnects by itself; the engine does.
import { connect, type Socket } from 'node:net';
import { errorMessage, NotConnectedError } from '../../engine/errors.js';

/** A reply: its words (`RESERVED 5 11` → ['RESERVED', '5', '11']) and the data some replies carry. */
export interface Reply {
  words: string[];
  body?: Buffer;
}

/** A reserved job. Ids are decimal strings (they may exceed 2^53). */
export interface Job {
  id: string;
  body: Buffer;
}

/** The server answered with something other than what the command succeeds with. */
export class BeanstalkdReplyError extends Error {
  constructor(
    readonly reply: string,
    command: string,
  ) {
    super(`beanstalkd ${command}: ${reply}`);
    this.name = 'BeanstalkdReplyError';
  }
}

/** Parses `host:port` (or `[v6]:port`); throws a message naming what is wrong. */
export function parseAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address.trim());
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`expected host:port (e.g. 127.0.0.1:11300), got '${address}'`);
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

/** How long connecting may take, and how long a reply may be late beyond a reserve's own timeout. */
export const CONNECT_TIMEOUT_MS = 5000;
export const REPLY_TIMEOUT_MS = 5000;

/** Replies that carry data, and which word holds its length. */
const BODY_LENGTH_AT: Record<string, number> = { RESERVED: 2, FOUND: 2, OK: 1 };

/** A reply line longer than this is not beanstalkd talking (its longest is well under 100 bytes). */
const MAX_LINE = 1024;
const CRLF = Buffer.from('\r\n');

interface Pending {
  resolve(reply: Reply): void;
  reject(err: Error): void;
  /** When the reply is overdue (ms since the epoch). */
  due: number;
}

export class BeanstalkdConnection {
  private readonly pending: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  /** While a reply's data is being received: its words and length, else null. */
  private head: { words: string[]; length: number } | null = null;
  private lostError: Error | null = null;
  private readonly lostListeners: Array<(err: Error) => void> = [];
  private readonly watchdog: NodeJS.Timeout;

  private constructor(
    private readonly socket: Socket,
    readonly address: string,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    // Without an 'error' listener a reset connection would crash the process.
    socket.on('error', (err) => this.markLost(new Error(`connection lost: ${err.message}`)));
    socket.on('close', () => this.markLost(new Error('connection closed')));
    this.watchdog = setInterval(() => this.checkOverdue(), 1000);
    this.watchdog.unref();
  }

  /** Connects; throws an Error naming the address and the reason. */
  static async open(address: string): Promise<BeanstalkdConnection> {
    let target: { host: string; port: number };
    try {
      target = parseAddress(address);
    } catch (err) {
      throw new Error(`address: ${errorMessage(err)}`);
    }
    const socket = connect({ ...target, noDelay: true });
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('timed out')), CONNECT_TIMEOUT_MS);
        socket.once('connect', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.once('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
    } catch (err) {
      socket.destroy();
      throw new Error(`failed to connect to beanstalkd at ${address}: ${errorMessage(err)}`);
    }
    return new BeanstalkdConnection(socket, address);
  }

  /** The error that ended the connection, or null while it is usable. */
  get lost(): Error | null {
    return this.lostError;
  }

  onLost(listener: (err: Error) => void): void {
    if (this.lostError) listener(this.lostError);
    else this.lostListeners.push(listener);
  }

  /**
   * Sends one command line (and a job body after it) and resolves with the reply. `waitMs` is
   * how long the server may legitimately take before answering (a reserve's timeout).
   */
  request(line: string, body?: Uint8Array, waitMs = 0): Promise<Reply> {
    if (this.lostError) return Promise.reject(this.notConnected());
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ resolve, reject, due: Date.now() + waitMs + REPLY_TIMEOUT_MS });
      this.socket.cork();
      this.socket.write(`${line}\r\n`);
      if (body) {
        this.socket.write(body);
        this.socket.write(CRLF);
      }
      this.socket.uncork();
    });
  }

  /** Puts a job into the tube in use; resolves with its id. */
  async put(body: Uint8Array, priority: number, delaySeconds: number, ttrSeconds: number): Promise<string> {
    const reply = await this.request(`put ${priority} ${delaySeconds} ${ttrSeconds} ${body.length}`, body);
    return this.expect(reply, 'INSERTED', 'put')[1] ?? '';
  }

  /**
   * Reserves a job from the watched tubes, waiting up to `timeoutSeconds` (0: answer at once).
   * TIMED_OUT means none came; DEADLINE_SOON means a job this connection holds is about to time out.
   */
  async reserve(timeoutSeconds: number): Promise<Job | 'TIMED_OUT' | 'DEADLINE_SOON'> {
    const reply = await this.request(
      `reserve-with-timeout ${timeoutSeconds}`,
      undefined,
      timeoutSeconds * 1000,
    );
    const [word, id] = reply.words;
    if (word === 'TIMED_OUT' || word === 'DEADLINE_SOON') return word;
    this.expect(reply, 'RESERVED', 'reserve');
    return { id: id ?? '', body: reply.body ?? Buffer.alloc(0) };
  }

  async delete(id: string): Promise<void> {
    this.expect(await this.request(`delete ${id}`), 'DELETED', `delete ${id}`);
  }

  async release(id: string, priority: number, delaySeconds: number): Promise<void> {
    this.expect(await this.request(`release ${id} ${priority} ${delaySeconds}`), 'RELEASED', `release ${id}`);
  }

  /** Gives a reserved job its whole time-to-run again. */
  async touch(id: string): Promise<void> {
    this.expect(await this.request(`touch ${id}`), 'TOUCHED', `touch ${id}`);
  }

  /** Drops the connection; every command still waiting fails with NotConnectedError. */
  destroy(): void {
    this.markLost(new Error('connection closed'));
  }

  private expect(reply: Reply, word: string, command: string): string[] {
    if (reply.words[0] !== word) throw new BeanstalkdReplyError(reply.words.join(' '), command);
    return reply.words;
  }

  private notConnected(): NotConnectedError {
    return new NotConnectedError(
      `beanstalkd at ${this.address}: ${this.lostError?.message ?? 'not connected'}`,
    );
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (!this.lostError) {
      if (this.head) {
        const { words, length } = this.head;
        if (this.buffer.length < length + 2) return;
        // A copy: the job outlives this read buffer, which may hold other replies.
        const body = Buffer.from(this.buffer.subarray(0, length));
        if (this.buffer[length] !== 13 || this.buffer[length + 1] !== 10) {
          this.markLost(new Error('protocol error: job data not followed by CRLF'));
          return;
        }
        this.buffer = this.buffer.subarray(length + 2);
        this.head = null;
        this.settle({ words, body });
        continue;
      }
      const end = this.buffer.indexOf(CRLF);
      if (end < 0) {
        if (this.buffer.length > MAX_LINE) this.markLost(new Error('protocol error: reply line too long'));
        return;
      }
      const words = this.buffer.toString('latin1', 0, end).split(' ');
      this.buffer = this.buffer.subarray(end + 2);
      const at = BODY_LENGTH_AT[words[0] ?? ''];
      if (at === undefined) {
        this.settle({ words });
        continue;
      }
      const length = Number(words[at]);
      if (!Number.isInteger(length) || length < 0) {
        this.markLost(new Error(`protocol error: bad data length in '${words.join(' ')}'`));
        return;
      }
      this.head = { words, length };
    }
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.shift();
    if (waiting) waiting.resolve(reply);
    else this.markLost(new Error(`protocol error: unexpected reply '${reply.words.join(' ')}'`));
  }

  private checkOverdue(): void {
    const oldest = this.pending[0];
    if (oldest && Date.now() > oldest.due) this.markLost(new Error('no reply from the server in time'));
  }

  private markLost(err: Error): void {
    if (this.lostError) return;
    this.lostError = err;
    clearInterval(this.watchdog);
    this.socket.destroy();
    const failure = this.notConnected();
    for (const waiting of this.pending.splice(0)) waiting.reject(failure);
    for (const listener of this.lostListeners.splice(0)) listener(err);
  }
}
