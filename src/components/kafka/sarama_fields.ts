// Fields of the older `kafka` input and output (the reference builds them on Sarama) that differ
// from the kafka_franz ones: `addresses`, a single `sasl` object, `target_version`. nekton maps
// them onto the same client as kafka_franz; what that client cannot honour is refused here.
import { type ConfigOf, field } from '../../config/spec.js';
import type { tlsField } from '../fields/tls.js';
import type { KafkaConnectionConfig, SaslConfig } from './fields.js';

const a = { advanced: true };

export function addressesField() {
  return field.array(
    field.string('addresses', 'Broker addresses; an entry may hold several, comma-separated.', {
      examples: [['localhost:9092'], ['localhost:9041,localhost:9042'], ['localhost:9041', 'localhost:9042']],
    }),
  );
}

export function targetVersionField() {
  return field.string(
    'target_version',
    'The Kafka protocol version to assume. Checked, then not needed: the client negotiates the version with each broker.',
    { optional: true, examples: ['2.1.0', '3.1.0'] },
  );
}

/** `client_id`, with Sarama's default. */
export function clientIdField() {
  return field.string('client_id', 'The client id sent to the brokers.', { default: 'benthos', ...a });
}

export function saramaSaslField() {
  return field.object(
    'sasl',
    'SASL authentication. nekton supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER with a static `access_token`.',
    [
      field.enum(
        'mechanism',
        'The SASL mechanism.',
        ['OAUTHBEARER', 'PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'none'],
        { default: 'none', ...a },
      ),
      field.string('user', 'The user name (PLAIN, SCRAM).', { default: '', ...a }),
      field.string('password', 'The password (PLAIN, SCRAM).', { default: '', secret: true, ...a }),
      field.string('access_token', 'A static OAUTHBEARER token.', { default: '', ...a }),
      field.string('token_cache', 'A cache holding the OAUTHBEARER token (not supported by nekton).', {
        default: '',
        ...a,
      }),
      field.string('token_key', 'The key of the token in `token_cache` (not supported by nekton).', {
        default: '',
        ...a,
      }),
    ],
    { optional: true, ...a },
  );
}

/** What the older components connect with, in their own field names (parsed). */
type SaramaConnection = ConfigOf<
  readonly [
    ReturnType<typeof addressesField>,
    ReturnType<typeof clientIdField>,
    ReturnType<typeof tlsField>,
    ReturnType<typeof saramaSaslField>,
  ]
>;
type SaramaSasl = SaramaConnection['sasl'];

/** What the client cannot do with a `sasl` object, and a malformed `target_version`. */
export function saramaProblems(
  sasl: Pick<NonNullable<SaramaSasl>, 'token_cache' | 'token_key'> | undefined,
  targetVersion: string | undefined,
): string[] {
  const problems: string[] = [];
  if (sasl?.token_cache || sasl?.token_key) {
    problems.push(
      'sasl.token_cache and sasl.token_key are not supported by nekton: give the token in sasl.access_token',
    );
  }
  if (targetVersion && !/^\d+\.\d+\.\d+(\.\d+)?$/.test(targetVersion.trim())) {
    problems.push(`target_version: ${targetVersion} is not a Kafka version (like 2.1.0)`);
  }
  return problems;
}

/** The kafka_franz `sasl` list of a Sarama `sasl` object. */
export function saslList(sasl: SaramaSasl): SaslConfig[] {
  if (!sasl || sasl.mechanism === 'none') return [];
  return [
    { mechanism: sasl.mechanism, username: sasl.user, password: sasl.password, token: sasl.access_token },
  ];
}

/**
 * The kafka_franz connection fields (parsed) of a `kafka` input or output: Sarama's defaults stand
 * in for the ones the older components do not have (metadata age, request overhead, idle timeout).
 */
export function franzConnection(config: SaramaConnection): KafkaConnectionConfig {
  return {
    seed_brokers: config.addresses,
    client_id: config.client_id,
    tls: config.tls,
    sasl: saslList(config.sasl),
    metadata_max_age: 600_000, // 10m
    request_timeout_overhead: 10_000, // 10s
    conn_idle_timeout: 20_000, // 20s
    tcp: undefined,
  };
}
