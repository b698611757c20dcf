// The connection fields both kafka_franz components share (seed brokers, client id, TLS, SASL,
// timeouts), exactly as the reference declares them, and the parsing of their values.
import { type FieldSpec, field } from '../../config/spec.js';
import { ConfigError } from '../../engine/errors.js';
import { expandUrls } from '../connection/urls.js';
import { type TlsConfig, tlsField } from '../fields/tls.js';

export interface SaslConfig {
  mechanism: string;
  username: string;
  password: string;
  token: string;
  extensions?: Record<string, string>;
}

export interface KafkaConnectionConfig {
  seed_brokers: string[];
  client_id: string;
  tls: TlsConfig;
  sasl?: SaslConfig[];
  metadata_max_age: string;
  request_timeout_overhead: string;
  conn_idle_timeout: string;
  tcp?: { connect_timeout: string };
}

const a = { advanced: true };
/** Checked by lint; the text is kept, since the kafka and redpanda components map their configs onto these fields as written. */
const d = { check: 'duration' } as const;

function tcpField(): FieldSpec {
  return field.object(
    'tcp',
    'TCP socket options.',
    [
      field.string('connect_timeout', 'How long a connection attempt may take (0s: the client default).', {
        default: '0s',
        ...d,
        ...a,
      }),
      field.object(
        'keep_alive',
        'TCP keep-alive probes.',
        [
          field.string('idle', 'Idle time before the first probe.', { default: '15s', ...d, ...a }),
          field.string('interval', 'Time between probes.', { default: '15s', ...d, ...a }),
          field.int('count', 'Unanswered probes before the connection is dropped.', { default: 9, ...a }),
        ],
        { optional: true, ...a },
      ),
      field.string('tcp_user_timeout', 'How long sent data may stay unacknowledged (Linux; 0s: off).', {
        default: '0s',
        ...d,
        ...a,
      }),
    ],
    { optional: true, ...a },
  );
}

function saslField(): FieldSpec {
  return field.array(
    field.object(
      'sasl',
      'SASL authentication mechanisms, tried in order. nekton supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (a static `token`).',
      [
        field.string('mechanism', 'The SASL mechanism.', {
          ...a,
          options: [
            'AWS_MSK_IAM',
            'OAUTHBEARER',
            'PLAIN',
            'REDPANDA_CLOUD_SERVICE_ACCOUNT',
            'SCRAM-SHA-256',
            'SCRAM-SHA-512',
            'none',
          ],
        }),
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
export function kafkaConnectionFields(): FieldSpec[] {
  return [
    field.array(
      field.string('seed_brokers', 'Brokers to bootstrap from; an entry may hold several, comma-separated.', {
        examples: [['localhost:9092'], ['foo:9092', 'bar:9092'], ['foo:9092,bar:9092']],
      }),
    ),
    field.string('client_id', 'The client id sent to the brokers.', { default: 'redpanda-connect', ...a }),
    tlsField(),
    saslField(),
    field.string('metadata_max_age', 'How long cluster metadata may be cached.', {
      default: '1m',
      ...d,
      ...a,
    }),
    field.string('request_timeout_overhead', 'Added to the timeout of each request to the brokers.', {
      default: '10s',
      ...d,
      ...a,
    }),
    field.string('conn_idle_timeout', 'How long an idle connection is kept.', { default: '20s', ...d, ...a }),
    tcpField(),
  ];
}

/** What seedBrokers would refuse, for lint (`field` names the list in the component's words). */
export function seedBrokerProblems(entries: string[] | undefined, field = 'seed_brokers'): string[] {
  // Entries that are all blank come from unset environment variables: lint says so already (or
  // was told not to with --skip-env-var-check), and the run refuses them.
  if (entries && entries.length > 0 && expandUrls(entries).length === 0) return [];
  try {
    seedBrokers(entries ?? []);
    return [];
  } catch (err) {
    return [(err as Error).message.replace(/^seed_brokers:/, `${field}:`)];
  }
}

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
