// What the `mqtt` input and output share: the connection fields (as the reference declares them)
// and dialing a broker from a URL list, with errors that name the address that failed and why.

import type * as MqttModule from 'mqtt';
import type { IClientOptions, IStore, MqttClient } from 'mqtt';
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';
import { closeQuietlyWith } from '../connection/close_quietly.js';
import { expandUrls, redactUrl } from '../connection/urls.js';
import { tlsField, tlsOptions } from '../fields/tls.js';

const a = { advanced: true };

/** The connection fields, in the reference's order. */
export function mqttConnectionFields() {
  return [
    field.urlList(
      'urls',
      'Brokers to connect to, tried in order until one accepts (`tcp://`, `ssl://`, `ws://`...).',
      { examples: [['tcp://127.0.0.1:1883']] },
    ),
    field.string(
      'client_id',
      'The client id; a fixed one is needed for `clean_session: false` to resume a session. Empty lets the broker assign one.',
      { default: '' },
    ),
    field.string('dynamic_client_id_suffix', 'Append a random suffix to `client_id` at each connection.', {
      optional: true,
      ...a,
      options: ['nanoid'],
    }),
    field.duration('connect_timeout', 'How long to wait for the broker to accept the connection.', {
      default: '30s',
      examples: ['1s', '500ms'],
    }),
    field.object(
      'will',
      'The last will the broker publishes when this client goes away without disconnecting.',
      [
        field.bool('enabled', 'Whether to set a last will.', { default: false, ...a }),
        field.int('qos', 'The QoS of the will message.', { default: 0, ...a }),
        field.bool('retained', 'Whether the will message is retained.', { default: false, ...a }),
        field.string('topic', 'The topic of the will message.', { default: '', ...a }),
        field.string('payload', 'The payload of the will message.', { default: '', ...a }),
      ],
      a,
    ),
    field.string('user', 'The user name to authenticate with.', { default: '', ...a }),
    field.string('password', 'The password to authenticate with.', { default: '', secret: true, ...a }),
    field.int('keepalive', 'Seconds between keepalive pings (0 disables them).', { default: 30, ...a }),
    tlsField(),
  ] as const;
}

const connectionFields = mqttConnectionFields();

/** The connection part of the `mqtt` input's and output's config. */
export type MqttConnectionConfig = ConfigOf<typeof connectionFields>;

/** Checks of the connection fields that lint can make (they used to fail the first connect). */
export function lintMqttConnection(config: RawConfigOf<typeof connectionFields>): string[] {
  return expandUrls(config.urls ?? []).length === 0 ? ['mqtt: urls must name at least one broker'] : [];
}

/** A QoS outside 0..2 is refused by lint (it used to fail the build). */
export function lintQos(qos: number): string[] {
  return [0, 1, 2].includes(qos) ? [] : [`mqtt: qos must be 0, 1 or 2, got ${qos}`];
}

/** The client id for one connection: with `nanoid`, a fresh random suffix each time. */
function clientId(config: MqttConnectionConfig): string {
  if (config.dynamic_client_id_suffix !== 'nanoid') return config.client_id;
  return config.client_id + nodeCrypto().randomBytes(16).toString('base64url').slice(0, 21);
}

export interface MqttLink {
  client: MqttClient;
  /** The (password-redacted) URL the client is connected to. */
  address: string;
}

export interface DialOptions {
  clean: boolean;
  /** Called for every incoming publish before mqtt.js acknowledges it (see the input). */
  handleMessage?: MqttClient['handleMessage'];
  /** Kept across connections so a QoS 2 message received (PUBREC sent) survives a reconnect. */
  incomingStore?: IStore;
}

/** Connects to the first URL that accepts the client; the error names each address tried and why it failed. */
export async function dialMqtt(config: MqttConnectionConfig, options: DialOptions): Promise<MqttLink> {
  const urls = config.urls;
  const secure = await tlsOptions(config.tls);
  const timeoutMs = config.connect_timeout || 30_000;
  const failures: string[] = [];
  const mqtt = await loadMqtt();
  for (const raw of urls) {
    const address = redactUrl(raw);
    const clientOptions: IClientOptions = {
      clientId: clientId(config),
      clean: options.clean,
      keepalive: config.keepalive,
      connectTimeout: timeoutMs,
      // The engine reconnects (with backoff, and reporting to /ready); mqtt.js must not.
      reconnectPeriod: 0,
      protocolVersion: 4,
    };
    if (options.incomingStore) clientOptions.incomingStore = options.incomingStore;
    if (config.user) clientOptions.username = config.user;
    if (config.password) clientOptions.password = config.password;
    if (config.will.enabled)
      clientOptions.will = {
        topic: config.will.topic,
        payload: Buffer.from(config.will.payload),
        qos: config.will.qos as 0 | 1 | 2,
        retain: config.will.retained,
      };
    if (secure) {
      Object.assign(clientOptions, secure);
      // With custom TLS on, speak TLS whatever the scheme says (as the reference's client does).
      if (/^(tcp|mqtt):/.test(raw)) clientOptions.protocol = 'mqtts';
    }
    try {
      return { client: await open(mqtt, raw, clientOptions, timeoutMs, options.handleMessage), address };
    } catch (err) {
      failures.push(`${address}: ${err instanceof Error ? err.message || err.name : String(err)}`);
    }
  }
  throw new Error(`cannot connect to MQTT broker ${failures.join('; ')}`);
}

// mqtt.js is loaded on first connect: a process that uses no MQTT component never pays for it.
let mqttModule: typeof MqttModule | undefined;

export async function loadMqtt(): Promise<typeof MqttModule> {
  mqttModule ??= await import('mqtt');
  return mqttModule;
}

function open(
  mqtt: typeof MqttModule,
  url: string,
  options: IClientOptions,
  timeoutMs: number,
  handleMessage: MqttClient['handleMessage'] | undefined,
): Promise<MqttClient> {
  // `tcp://` and `ssl://` are the reference's schemes; mqtt.js spells them mqtt/mqtts.
  const target = url.replace(/^tcp:/, 'mqtt:').replace(/^ssl:/, 'mqtts:');
  const client = mqtt.connect(target, { ...options, manualConnect: true });
  if (handleMessage) client.handleMessage = handleMessage;
  return new Promise((resolve, reject) => {
    const fail = (err: Error) => {
      cleanup();
      client.end(true);
      reject(err);
    };
    const onConnect = () => {
      cleanup();
      resolve(client);
    };
    const onError = (err: Error) => fail(err);
    const onClose = () => fail(new Error('connection closed before the broker accepted it'));
    const timer = setTimeout(() => fail(new Error(`no CONNACK within ${timeoutMs}ms`)), timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      client.off('connect', onConnect);
      client.off('error', onError);
      client.off('close', onClose);
    };
    client.on('connect', onConnect);
    client.on('error', onError);
    client.on('close', onClose);
    client.connect();
  });
}

/** Disconnects politely when the broker answers, else drops the socket. */
export async function closeMqtt(client: MqttClient | null, force = false): Promise<void> {
  if (!client) return;
  // A client error after this point must not become an unhandled 'error' event.
  client.on('error', () => undefined);
  if (force || !client.connected) {
    client.end(true);
    return;
  }
  await closeQuietlyWith((done) => client.end(false, {}, done), {
    waitMs: 1000,
    onTimeout: () => client.end(true),
  });
}
