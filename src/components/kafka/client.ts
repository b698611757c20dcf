// The Kafka client library, loaded only when a kafka component is built (so a process that never
// uses Kafka pays nothing for it), the client options built from the shared fields, and errors
// turned into one line that names the brokers and the reason.
import type { BaseOptions } from '@platformatic/kafka';
import { ConfigError } from '../../engine/errors.js';
import { tlsOptions } from '../fields/tls.js';
import { type KafkaConnectionConfig, type SaslConfig, seedBrokers } from './fields.js';

export type KafkaModule = typeof import('@platformatic/kafka');

export function loadKafka(): Promise<KafkaModule> {
  return import('@platformatic/kafka');
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const SUPPORTED_SASL = new Set(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512', 'OAUTHBEARER']);

/**
 * Client options common to the consumer and the producer. As in franz-go, a request may take
 * `request_timeout_overhead` beyond the longest the broker may legitimately hold it (`longestWaitMs`:
 * a fetch's wait, a group join's rebalance): a peer that accepts and never answers fails then.
 */
export async function kafkaClientOptions(
  config: KafkaConnectionConfig,
  longestWaitMs = 0,
): Promise<BaseOptions> {
  const connectMs = config.tcp?.connect_timeout ?? 0;
  const options: BaseOptions = {
    clientId: config.client_id,
    bootstrapBrokers: seedBrokers(config.seed_brokers),
    metadataMaxAge: config.metadata_max_age,
    connectTimeout: connectMs > 0 ? connectMs : DEFAULT_CONNECT_TIMEOUT_MS,
    // `timeout` is the library's request timeout (named requestTimeout from 1.27, which needs Node 22).
    timeout: config.request_timeout_overhead + longestWaitMs,
    // The engine reconnects with its own backoff; the client should fail fast and say why.
    retries: 0,
  };
  const tls = await tlsOptions(config.tls);
  if (tls) options.tls = tls;
  const sasl = saslOptions(config.sasl);
  if (sasl) options.sasl = sasl;
  return options;
}

function saslOptions(list: ReadonlyArray<SaslConfig | undefined>): BaseOptions['sasl'] {
  const chosen = list.find((s) => s !== undefined && s.mechanism !== 'none');
  if (!chosen) return undefined;
  if (!SUPPORTED_SASL.has(chosen.mechanism)) {
    throw new ConfigError(`sasl: mechanism ${chosen.mechanism} is not supported by nekton`);
  }
  const mechanism = chosen.mechanism as 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512' | 'OAUTHBEARER';
  if (mechanism === 'OAUTHBEARER') {
    return {
      mechanism,
      token: chosen.token,
      oauthBearerExtensions: chosen.extensions as Record<string, string> | undefined,
    };
  }
  return { mechanism, username: chosen.username, password: chosen.password };
}

/**
 * `Cannot connect to any broker: Connection to 127.0.0.1:9 failed (connect ECONNREFUSED 127.0.0.1:9)`:
 * the library nests the per-broker reasons in AggregateErrors and causes.
 */
/**
 * `work`, or a `Request timed out` error once the client's connect and request timeouts have both
 * passed without an answer: the pinned 1.22 (the last release that runs on Node 20) has no request
 * timeout of its own, so a peer that accepts and never answers would hold a connect for ever.
 */
export function answerWithin<T>(work: Promise<T>, options: BaseOptions): Promise<T> {
  const ms = (options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT_MS) + (options.timeout ?? 0);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Request timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export function describeKafkaError(err: unknown): string {
  const text = describeNested(err);
  // The library's words for a peer that is not (or not yet) a working Kafka broker.
  if (/^Connection closed/.test(text))
    return `${text}: the peer hung up before answering in Kafka (is this a Kafka broker?)`;
  if (/^Request timed out/.test(text))
    return `${text}: no Kafka answer in time (is this a Kafka broker, and is it up?)`;
  return text;
}

function describeNested(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  let text = err.message;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && !text.includes(cause.message)) text += ` (${cause.message})`;
  const nested = (err as { errors?: unknown[] }).errors;
  if (Array.isArray(nested) && nested.length > 0) {
    const reasons = [...new Set(nested.map(describeNested))];
    text += `: ${reasons.join('; ')}`;
  }
  return text;
}
