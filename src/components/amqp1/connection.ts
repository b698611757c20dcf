// Dialing AMQP 1.0 brokers for the amqp_1 input and output with rhea: URL lists with fallback,
// TLS, SASL (from `sasl` or the URL's user), and errors that name the (password-redacted) URL.
import type { Socket } from 'node:net';
import type { AmqpError, Connection, ConnectionOptions, EventContext } from 'rhea';
import { redactUrl } from '../connection/urls.js';
import { type TlsConfig, tlsOptions } from '../fields/tls.js';
import type { SaslConfig } from './fields.js';
import type { Encoders } from './outgoing.js';

type Rhea = typeof import('rhea');
// Loaded on first connect: configs that never use AMQP 1.0 do not pay for the client.
let rhea: Rhea | undefined;

async function loadRhea(): Promise<Rhea> {
  if (!rhea) {
    const mod = (await import('rhea')) as Rhea & { default?: Rhea };
    // A CommonJS module whose export is an object built at run time: it arrives as `default`.
    rhea = mod.default ?? mod;
  }
  return rhea;
}

// The reference's client defaults: fail a dial after 30s, a peer silent for a minute is dead.
const DIAL_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 60_000;

export interface Amqp1Link {
  connection: Connection;
  /** The (password-redacted) URL the connection went to, for errors raised later on. */
  address: string;
}

/** Every event through which rhea reports a failure of the connection or of one of its endpoints. */
export const FAILURE_EVENTS = [
  'connection_error',
  'connection_close',
  'disconnected',
  'protocol_error',
  'error',
  'session_error',
  'session_close',
  'sender_error',
  'sender_close',
  'receiver_error',
  'receiver_close',
] as const;

/** Opens a connection to the first URL that accepts one; the error names every URL tried and why it failed. */
export async function dialAny(
  urls: readonly string[],
  tls: TlsConfig,
  sasl: SaslConfig | undefined,
  containerId: string,
): Promise<Amqp1Link> {
  const secure = await tlsOptions(tls);
  const failures: string[] = [];
  for (const raw of urls) {
    const address = redactUrl(raw);
    let target: URL;
    try {
      target = new URL(raw);
    } catch {
      failures.push(`${address}: not a valid URL`);
      continue;
    }
    const tlsOn = Boolean(secure) || target.protocol === 'amqps:';
    const options: Record<string, unknown> = {
      host: target.hostname,
      port: Number(target.port) || (tlsOn ? 5671 : 5672),
      reconnect: false,
      idle_time_out: IDLE_TIMEOUT_MS,
      container_id: containerId,
      ...credentials(target, sasl),
    };
    if (tlsOn) Object.assign(options, secure ?? {}, { transport: 'tls', servername: target.hostname });
    try {
      return { connection: await open(options as unknown as ConnectionOptions, containerId), address };
    } catch (err) {
      failures.push(`${address}: ${(err as Error).message}`);
    }
  }
  throw new Error(`cannot connect to AMQP 1.0 broker ${failures.join('; ')}`);
}

/**
 * rhea's SASL options: `plain` and `anonymous` as configured; with `none`, a user in the URL is
 * sent with PLAIN (as the reference's client does), and no user means no SASL at all.
 */
function credentials(target: URL, sasl: SaslConfig | undefined): Record<string, unknown> {
  switch (sasl?.mechanism) {
    case 'plain':
      return { username: sasl.user, password: sasl.password };
    case 'anonymous':
      return { username: 'anonymous' };
    default:
      if (!target.username) return {};
      return {
        username: decodeURIComponent(target.username),
        password: decodeURIComponent(target.password),
      };
  }
}

async function open(options: ConnectionOptions, containerId: string): Promise<Connection> {
  const client = await loadRhea();
  const container = client.create_container({ id: containerId });
  // rhea throws an 'error' event no one listens to: every failure is handled through the connection.
  container.on('error', () => undefined);
  return new Promise<Connection>((resolve, reject) => {
    const connection = container.connect(options);
    let settled = false;
    const timer = setTimeout(() => fail(new Error('no answer from the broker within 30s')), DIAL_TIMEOUT_MS);
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const event of FAILURE_EVENTS) connection.removeListener(event, onFailure);
      connection.removeListener('connection_open', onOpen);
      // A refused handshake leaves the socket open on some brokers: drop it.
      connection.on('disconnected', () => undefined);
      void closeConnection(connection);
      reject(err);
    };
    const onFailure = (ctx: EventContext) => fail(new Error(describeFailure(ctx)));
    const onOpen = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const event of FAILURE_EVENTS) connection.removeListener(event, onFailure);
      resolve(connection);
    };
    for (const event of FAILURE_EVENTS) connection.on(event, onFailure);
    connection.once('connection_open', onOpen);
  });
}

/** What went wrong, from an event's context: an AMQP error (condition and description) or a socket error. */
export function describeFailure(ctx: EventContext): string {
  const amqp =
    ctx.receiver?.error ?? ctx.sender?.error ?? ctx.session?.error ?? ctx.connection?.error ?? undefined;
  const fromAmqp = amqpErrorText(amqp as AmqpError | undefined);
  if (fromAmqp) return fromAmqp;
  const err = ctx.error as Error | undefined;
  if (err?.message) {
    // rhea's text for a SASL outcome other than ok (code 1 is "auth").
    if (/^Failed to authenticate/.test(err.message))
      return `authentication failed (${err.message}): check the user and password (sasl.user, sasl.password or the URL's)`;
    return err.message;
  }
  return 'connection closed';
}

/** `condition: description` of an AMQP error, or '' when there is none. */
export function amqpErrorText(err: AmqpError | undefined): string {
  if (!err) return '';
  // rhea hands a peer's error over either decoded or as its raw described list.
  const raw = err as unknown as { value?: { value?: unknown }[] };
  const condition = err.condition ?? raw.value?.[0]?.value;
  const description = err.description ?? raw.value?.[1]?.value;
  if (!condition && !description) return '';
  return [condition, description].filter(Boolean).join(': ');
}

/**
 * Closes a connection, waiting for the broker to hang up (at most `waitMs`, then the socket is
 * dropped). rhea clears its idle timer only when the socket ends: a socket destroyed under it
 * would leave that timer holding the process open for two minutes, so rhea is told as well.
 */
export function closeConnection(connection: Connection, waitMs = 2000): Promise<void> {
  const socket = socketOf(connection);
  if (!socket || socket.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      socket.off('close', done);
      socket.destroy();
      (connection as unknown as { eof?: () => void }).eof?.();
      resolve();
    }, waitMs);
    socket.once('close', done);
    connection.close();
  });
}

/** The connection's socket (not in rhea's typings): dropped when a broker does not answer a close. */
function socketOf(connection: Connection): Socket | undefined {
  return (connection as unknown as { socket?: Socket }).socket;
}

/** rhea's typed-value helpers the output needs to encode a message. */
export async function loadEncoders(): Promise<Encoders> {
  const client = await loadRhea();
  return {
    dataSection: (bytes) => client.message.data_section(bytes),
    ulong: (n) => client.types.wrap_ulong(n),
    uuid: (bytes) => client.types.wrap_uuid(bytes),
  };
}
