// The connection fields both kafka_franz components share (seed brokers, client id, TLS, SASL,
// timeouts), exactly as the reference declares them, and the parsing of their values.
import { type ConfigOf, field } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { expandUrls } from '../connection/urls.js';
import { tlsField } from '../fields/tls.js';

const a = { advanced: true };

function tcpField() {
  return field.object(
    'tcp',
    'TCP socket options.',
    [
      field.duration('connect_timeout', 'How long a connection attempt may take (0s: the client default).', {
        default: '0s',
        ...a,
      }),
      field.object(
        'keep_alive',
        'TCP keep-alive probes.',
        [
          field.duration('idle', 'Idle time before the first probe.', { default: '15s', ...a }),
          field.duration('interval', 'Time between probes.', { default: '15s', ...a }),
          field.int('count', 'Unanswered probes before the connection is dropped.', { default: 9, ...a }),
        ],
        { optional: true, ...a },
      ),
      field.duration('tcp_user_timeout', 'How long sent data may stay unacknowledged (Linux; 0s: off).', {
        default: '0s',
        ...a,
      }),
    ],
    { optional: true, ...a },
  );
}

const SASL_MECHANISMS = [
  'AWS_MSK_IAM',
  'OAUTHBEARER',
  'PLAIN',
  'REDPANDA_CLOUD_SERVICE_ACCOUNT',
  'SCRAM-SHA-256',
  'SCRAM-SHA-512',
  'none',
] as const;

function saslField() {
  return field.array(
    field.object(
      'sasl',
      'SASL authentication mechanisms, tried in order. nekton supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (a static `token`).',
      [
        field.enum('mechanism', 'The SASL mechanism.', SASL_MECHANISMS, a),
        field.string('username', 'The user name (PLAIN, SCRAM).', { default: '', ...a }),
        field.string('password', 'The password (PLAIN, SCRAM).', { default: '', secret: true, ...a }),
        field.string('token', 'The OAUTHBEARER token.', { default: '', ...a }),
        field.map(field.string('extensions', 'OAUTHBEARER extensions.', { optional: true, ...a })),
        field.object(
          'aws',
          'AWS settings of AWS_MSK_IAM (not supported by nekton).',
          [
            field.string('region', 'The AWS region.', { optional: true, ...a }),
            field.string('endpoint', 'A custom AWS endpoint.', { optional: true, ...a }),
            tcpField(),
            field.object(
              'credentials',
              'AWS credentials.',
              [
                field.string('profile', 'A profile of the credentials file.', { optional: true, ...a }),
                field.string('id', 'The access key id.', { optional: true, ...a }),
                field.string('secret', 'The secret access key.', { optional: true, secret: true, ...a }),
                field.string('token', 'A session token.', { optional: true, ...a }),
                field.bool('from_ec2_role', 'Use the EC2 instance role.', { optional: true, ...a }),
                field.string('role', 'A role to assume.', { optional: true, ...a }),
                field.string('role_external_id', 'The external id of `role`.', { optional: true, ...a }),
              ],
              { optional: true, ...a },
            ),
          ],
          { optional: true, ...a },
        ),
      ],
      { optional: true, ...a },
    ),
  );
}

/** seed_brokers … tcp, in the reference's order. */
export function kafkaConnectionFields() {
  return [
    field.array(
      field.string('seed_brokers', 'Brokers to bootstrap from; an entry may hold several, comma-separated.', {
        examples: [['localhost:9092'], ['foo:9092', 'bar:9092'], ['foo:9092,bar:9092']],
      }),
    ),
    field.string('client_id', 'The client id sent to the brokers.', { default: 'redpanda-connect', ...a }),
    tlsField(),
    saslField(),
    field.duration('metadata_max_age', 'How long cluster metadata may be cached.', { default: '1m', ...a }),
    field.duration('request_timeout_overhead', 'Added to the timeout of each request to the brokers.', {
      default: '10s',
      ...a,
    }),
    field.duration('conn_idle_timeout', 'How long an idle connection is kept.', { default: '20s', ...a }),
    tcpField(),
  ];
}

type ParsedConnection = ConfigOf<ReturnType<typeof kafkaConnectionFields>>;
type SaslEntry = NonNullable<ParsedConnection['sasl'][number]>;

/**
 * One `sasl` entry as the client uses it. The older `kafka` components map their single Sarama
 * `sasl` object onto these four (or five) keys, so the AWS settings are not required here.
 */
export type SaslConfig = Pick<SaslEntry, 'mechanism' | 'username' | 'password' | 'token'> &
  Partial<Pick<SaslEntry, 'extensions'>>;

/** The parsed connection fields (durations in ms), with `sasl` narrowed to what the client uses. */
export type KafkaConnectionConfig = Omit<ParsedConnection, 'sasl'> & {
  sasl: ReadonlyArray<SaslConfig | undefined>;
};

/** `["a:9092,b:9092", "c:9092"]` → `["a:9092", "b:9092", "c:9092"]`; every entry needs a port. */
export function seedBrokers(entries: string[]): string[] {
  const brokers = expandUrls(entries);
  if (brokers.length === 0) throw new ConfigError('seed_brokers: at least one broker address is required');
  for (const b of brokers) {
    if (!/^(\[[^\]]+\]|[^:]+):\d{1,5}$/.test(b)) {
      throw new ConfigError(`seed_brokers: ${b} is not a host:port address`);
    }
  }
  return brokers;
}

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
};

/** Go humanize sizes as the reference writes them: `1B`, `50MiB`, `1MB`, `0`. */
export function byteSize(text: string, fieldName: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = BYTE_UNITS[(m?.[2] ?? '').toLowerCase()];
  if (!m || unit === undefined) throw new ConfigError(`${fieldName}: ${text} is not a byte size`);
  return Math.round(Number(m[1]) * unit);
}

/** What byteSize would refuse in the named fields, for lint. */
export function byteSizeProblems<K extends string>(config: Record<K, string>, names: readonly K[]): string[] {
  const problems: string[] = [];
  for (const name of names) {
    try {
      byteSize(config[name], name);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return problems;
}

const SUPPORTED_SASL = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER'];

/** A `sasl` mechanism the client cannot use (AWS_MSK_IAM...), for lint. */
export function saslProblems(list: ReadonlyArray<{ mechanism?: string } | undefined>): string[] {
  // Mechanisms match case-insensitively, as the field's options do.
  const chosen = list.find((s) => s?.mechanism !== undefined && s.mechanism.toLowerCase() !== 'none');
  if (!chosen?.mechanism || SUPPORTED_SASL.includes(chosen.mechanism.toUpperCase())) return [];
  return [`sasl: mechanism ${chosen.mechanism} is not supported by nekton`];
}
