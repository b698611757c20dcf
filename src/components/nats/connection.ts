// The connection fields every NATS component shares (urls, reconnects, TLS, auth), dialing a
// server with errors that name the address, and the mapping between NATS headers and metadata.
import { readFile } from 'node:fs/promises';
import type { Authenticator, MsgHdrs, NatsConnection, NodeConnectionOptions } from '@nats-io/transport-node';
import type { Interpolation } from '../../bloblang/index.js';
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';
import type { BuildContext } from '../../engine/context.js';
import type { LostConnection } from '../../engine/lost_connection.js';
import type { Batch, Message } from '../../message/message.js';
import { expandUrls, redactUrl } from '../connection/urls.js';
import type { MetadataFilterConfig, MetadataKeyFilter } from '../fields/metadata.js';
import { tlsField, tlsOptions } from '../fields/tls.js';
import { loadNats, nats } from './library.js';

const a = { advanced: true };
const opt = { optional: true, advanced: true } as const;

/** The server list; the factory receives it with comma-separated entries split out. */
export function urlsField() {
  return field.urlList(
    'urls',
    'A list of URLs to connect to. An entry holding commas is split into several URLs.',
    {
      examples: [['nats://127.0.0.1:4222'], ['nats://username:password@127.0.0.1:4222']],
    },
  );
}

export function maxReconnectsField() {
  return field.int(
    'max_reconnects',
    'How many times the client library itself tries to reconnect before giving up (negative: forever). When unset, a lost connection is closed at once and nekton reconnects with its own backoff, reporting the outage on `/ready`.',
    opt,
  );
}

/** `tls`, `tls_handshake_first` and `auth`, in the reference's order (they follow the component's own fields). */
export function securityFields() {
  return [
    tlsField(),
    field.bool(
      'tls_handshake_first',
      'Start the TLS handshake before the server sends its INFO (the server must be configured for it).',
      { default: false, ...a },
    ),
    field.object(
      'auth',
      'Optional authentication: an NKey, a credentials file (JWT + seed), user/password or a token.',
      [
        field.string('nkey_file', 'A file holding an NKey seed.', {
          ...opt,
          examples: ['./seed.nk'],
        }),
        field.string('nkey', 'An NKey seed.', {
          ...opt,
          secret: true,
          examples: ['UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4'],
        }),
        field.string('user_credentials_file', 'A credentials file (user JWT and NKey seed).', {
          ...opt,
          examples: ['./user.creds'],
        }),
        field.string('user_jwt', 'A user JWT; needs `user_nkey_seed`.', { ...opt, secret: true }),
        field.string('user_nkey_seed', 'The NKey seed that signs for `user_jwt`.', {
          ...opt,
          secret: true,
        }),
        field.string('user', 'A user name (with `password`).', { ...opt, examples: ['nats_user'] }),
        field.string('password', 'The password of `user`.', {
          ...opt,
          secret: true,
          examples: ['nats_password'],
        }),
        field.string('token', 'An authentication token.', { ...opt, secret: true }),
      ],
      a,
    ),
  ] as const;
}

const connectionFields = [urlsField(), maxReconnectsField(), ...securityFields()] as const;

/** The fields of every NATS component that say where and how to connect. */
export type NatsConnectionConfig = ConfigOf<typeof connectionFields>;
type NatsAuthConfig = NatsConnectionConfig['auth'];

/** Connection mistakes lint can tell from the config alone (they used to fail the connect). */
export function lintNatsConnection(config: RawConfigOf<typeof connectionFields>): string[] {
  const problems: string[] = [];
  if (expandUrls(config.urls ?? []).length === 0)
    problems.push('urls: at least one NATS server URL is required');
  const auth = config.auth ?? {};
  if (Boolean(auth.user_jwt) !== Boolean(auth.user_nkey_seed))
    problems.push('auth: user_jwt and user_nkey_seed must be set together');
  return problems;
}

/**
 * The reference's tracing maps. nekton carries a trace in the W3C `traceparent` metadata instead
 * (see the tracer), so a mapping here would be ignored: lint refuses a non-empty one.
 */
export function tracingMapField<const N extends 'extract_tracing_map' | 'inject_tracing_map'>(name: N) {
  return field.string(
    name,
    'Not supported: nekton carries traces in the W3C `traceparent` metadata (forward it as a header with the metadata filter); a non-empty mapping is refused by lint.',
    { ...opt, bloblang: true, check: 'unsupported' },
  );
}

const encoder = new TextEncoder();

async function authenticators(auth: NatsAuthConfig): Promise<Authenticator[]> {
  const out: Authenticator[] = [];
  const { nkeyAuthenticator, credsAuthenticator, jwtAuthenticator } = (await loadNats()).transport;
  if (auth.nkey_file)
    out.push(nkeyAuthenticator(encoder.encode((await readFile(auth.nkey_file, 'utf8')).trim())));
  if (auth.nkey) out.push(nkeyAuthenticator(encoder.encode(auth.nkey)));
  if (auth.user_credentials_file) out.push(credsAuthenticator(await readFile(auth.user_credentials_file)));
  // lintNatsConnection makes sure the two come together.
  if (auth.user_jwt && auth.user_nkey_seed)
    out.push(jwtAuthenticator(auth.user_jwt, encoder.encode(auth.user_nkey_seed)));
  return out;
}

/** Client options from a checked config (reads the key and certificate files it names). */
export async function connectionOptions(
  config: NatsConnectionConfig,
  name: string,
): Promise<NodeConnectionOptions> {
  const options: NodeConnectionOptions = { servers: config.urls, name, timeout: 10_000 };
  // Unset: no silent reconnects inside the client, so the engine sees (and reports) the outage.
  if (config.max_reconnects === undefined) options.reconnect = false;
  else options.maxReconnectAttempts = config.max_reconnects;
  const tls = await tlsOptions(config.tls);
  if (tls || config.tls_handshake_first) {
    // node:tls options pass through the client to tls.connect (ca/cert/key may be lists).
    options.tls = { ...(tls ?? {}), handshakeFirst: config.tls_handshake_first } as NonNullable<
      NodeConnectionOptions['tls']
    >;
  }
  const auth = config.auth ?? {};
  const auths = await authenticators(auth);
  if (auths.length > 0) options.authenticator = auths;
  if (auth.user) {
    options.user = auth.user;
    if (auth.password) options.pass = auth.password;
  }
  if (auth.token) options.token = auth.token;
  return options;
}

/**
 * Reports to `lost` once the connection closes by itself (server gone; the client does not
 * reconnect on its own unless max_reconnects is set) while `current()` still holds, so an idle
 * output learns of it (OutputWriter.onConnectionLost). The error names the addresses.
 */
export function reportWhenClosed(
  nc: NatsConnection,
  config: NatsConnectionConfig,
  lost: LostConnection,
  current: () => boolean,
): void {
  const where = expandUrls(config.urls).map(redactUrl).join(', ');
  void nc.closed().then((err) => {
    if (current())
      lost.report(new Error(`NATS at ${where}: connection closed${err ? `: ${describe(err)}` : ''}`));
  });
}

/** Connects to the first reachable server; the error names the addresses and the reason. */
export async function connectNats(config: NatsConnectionConfig, name: string): Promise<NatsConnection> {
  const options = await connectionOptions(config, name);
  const where = (options.servers as string[]).map(redactUrl).join(', ');
  try {
    return await (await loadNats()).transport.connect(options);
  } catch (err) {
    throw new Error(`cannot connect to NATS at ${where}: ${describe(err)}`);
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  const detail =
    cause instanceof Error && cause.message && cause.message !== err.message ? ` (${cause.message})` : '';
  return `${err.message || err.name}${detail}`;
}

/** A connection name for server-side monitoring: the component's label, else its config path. */
export function connectionName(ctx: BuildContext): string {
  return `nekton ${ctx.label || ctx.path.replace(/^root\./, '')}`;
}

/** Every header becomes metadata (its first value), as the reference does. */
export function headersToMetadata(msg: Message, hdrs: MsgHdrs | undefined): void {
  if (!hdrs) return;
  for (const key of hdrs.keys()) msg.setMeta(key, hdrs.get(key));
}

function metaText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString();
  return JSON.stringify(value);
}

/** Headers of an outgoing message: the interpolated `headers`, then metadata the filter includes. */
export class HeaderBuilder {
  private readonly entries: [string, Interpolation][];

  constructor(
    headers: Record<string, Interpolation>,
    private readonly includeMeta: MetadataKeyFilter,
  ) {
    this.entries = Object.entries(headers);
  }

  build(batch: Batch, index: number): MsgHdrs | undefined {
    if (this.entries.length === 0 && !this.includeMeta) return undefined;
    const hdrs = nats().transport.headers();
    for (const [k, v] of this.entries) hdrs.set(k, v.render(batch, index));
    if (this.includeMeta) {
      for (const [k, v] of (batch[index] as Message).metadata()) {
        if (this.includeMeta(k)) hdrs.set(k, metaText(v));
      }
    }
    return hdrs.keys().length > 0 ? hdrs : undefined;
  }
}

export type { MetadataFilterConfig };
