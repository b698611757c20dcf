// Dialing AMQP 0.9.1 brokers for the `amqp_0_9` input and output: URL lists with fallback,
// TLS, and errors that name the (password-redacted) address that failed.
import type { ChannelModel } from 'amqplib';

// Loaded on first connect: amqplib costs ~25 ms of start-up for configs that never use it.
let amqplib: typeof import('amqplib') | undefined;

import { redactUrl } from '../connection/urls.js';
import type { TlsConfig } from '../fields/tls.js';
import { tlsOptions } from '../fields/tls.js';

// Go's amqp client defaults: fail a dial after 30s, detect a dead peer within ~20s.
const DIAL_TIMEOUT_MS = 30_000;
const HEARTBEAT_S = 10;

export interface AmqpConnection {
  connection: ChannelModel;
  /** The (password-redacted) URL the connection went to, for errors raised later on. */
  address: string;
}

/**
 * Opens a connection to the first URL that accepts one; the error names every address tried and
 * why it failed. `connectionName` shows in the broker's management UI and `rabbitmqctl`.
 */
export async function dialAny(
  urls: readonly string[],
  tls: TlsConfig,
  connectionName?: string,
): Promise<AmqpConnection> {
  const secure = await tlsOptions(tls);
  const failures: string[] = [];
  for (const raw of urls) {
    let target: URL;
    try {
      target = new URL(raw);
    } catch {
      failures.push(`${redactUrl(raw)}: not a valid URL`);
      continue;
    }
    amqplib ??= await import('amqplib');
    const socketOptions: Record<string, unknown> = { timeout: DIAL_TIMEOUT_MS };
    if (connectionName) socketOptions.clientProperties = { connection_name: connectionName };
    if (secure) {
      // With custom TLS on, speak TLS whatever the scheme says (as the reference's client does).
      if (target.protocol === 'amqp:') {
        if (!target.port) target.port = '5672';
        target.protocol = 'amqps:';
      }
      Object.assign(socketOptions, secure, { servername: target.hostname });
      // No user in the URL: authenticate with the client certificate (SASL EXTERNAL).
      if (!target.username) socketOptions.credentials = amqplib.credentials.external();
    }
    if (!target.searchParams.has('heartbeat')) target.searchParams.set('heartbeat', String(HEARTBEAT_S));
    try {
      return { connection: await amqplib.connect(target.toString(), socketOptions), address: redactUrl(raw) };
    } catch (err) {
      failures.push(`${redactUrl(raw)}: ${describe(err)}`);
    }
  }
  throw new Error(`cannot connect to AMQP broker ${failures.join('; ')}`);
}

/** The name a component's connection shows in the broker: `nekton <stream> <path> <label>`. */
export function connectionName(ctx: { streamId: string | undefined; path: string; label: string }): string {
  return ['nekton', ctx.streamId, ctx.path.replace(/^root\./, ''), ctx.label].filter(Boolean).join(' ');
}

function describe(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return describe(err.errors[0]);
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
