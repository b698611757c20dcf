// Fields of the older `kafka` input and output (the reference builds them on Sarama) that differ
// from the kafka_franz ones: `addresses`, a single `sasl` object, `target_version`. nekton maps
// them onto the same client as kafka_franz; what that client cannot honour is refused here.
import { type FieldSpec, field } from '../../config/spec.js';
import type { TlsConfig } from '../fields/tls.js';
import type { SaslConfig } from './fields.js';

export interface SaramaSaslConfig {
  mechanism: string;
  user: string;
  password: string;
  access_token: string;
  token_cache: string;
  token_key: string;
}

const a = { advanced: true };

export function addressesField(): FieldSpec {
  return field.array(
    field.string('addresses', 'Broker addresses; an entry may hold several, comma-separated.', {
      examples: [['localhost:9092'], ['localhost:9041,localhost:9042'], ['localhost:9041', 'localhost:9042']],
    }),
  );
}

export function targetVersionField(): FieldSpec {
  return field.string(
    'target_version',
    'The Kafka protocol version to assume. Checked, then not needed: the client negotiates the version with each broker.',
    { optional: true, examples: ['2.1.0', '3.1.0'] },
  );
}

export function saramaSaslField(): FieldSpec {
  return field.object(
    'sasl',
    'SASL authentication. nekton supports PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER with a static `access_token`.',
    [
      field.string('mechanism', 'The SASL mechanism.', {
        default: 'none',
        options: ['OAUTHBEARER', 'PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'none'],
        ...a,
      }),
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

/** What the client cannot do with a `sasl` object, and a malformed `target_version`. */
export function saramaProblems(
  sasl: SaramaSaslConfig | undefined,
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
export function saslList(sasl: SaramaSaslConfig | undefined): SaslConfig[] {
  if (!sasl || sasl.mechanism === 'none') return [];
  return [
    { mechanism: sasl.mechanism, username: sasl.user, password: sasl.password, token: sasl.access_token },
  ];
}

/** What the older components connect with, in their own field names. */
export interface SaramaConnection {
  addresses: string[];
  client_id: string;
  tls: TlsConfig;
  sasl?: SaramaSaslConfig;
}

/**
 * The kafka_franz connection fields of a `kafka` input or output: Sarama's defaults stand in for
 * the ones the older components do not have (metadata age, request overhead, idle timeout).
 */
export function franzConnection(config: SaramaConnection) {
  return {
    seed_brokers: config.addresses,
    client_id: config.client_id,
    tls: config.tls,
    sasl: saslList(config.sasl),
    metadata_max_age: '10m',
    request_timeout_overhead: '10s',
    conn_idle_timeout: '20s',
  };
}
