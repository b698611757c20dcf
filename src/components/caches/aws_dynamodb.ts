// The `aws_dynamodb` cache: each key is an item of the table (the key in `hash_key`, the value as
// binary in `data_key`), with an optional expiry time in `ttl_key`.

import type { DynamoDBClient, PutItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { Logger } from 'pino';
import { defineComponent, field } from '../../config/spec.js';
import { type BackoffConfig, withRetries } from '../../engine/backoff.js';
import type { Cache } from '../../engine/component.js';
import { dynamoClient } from '../aws/dynamodb.js';
import { dynamo, loadAws } from '../aws/library.js';
import { awsClientOptions, awsErrorText, describeTarget, isCredentialError } from '../aws/session.js';
import { awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { backoffField } from '../fields/backoff.js';

const ADD_REFUSED = 'ConditionalCheckFailedException';

export interface DynamoCacheOptions {
  table: string;
  hashKey: string;
  dataKey: string;
  consistentRead: boolean;
  defaultTtlMs: number | undefined;
  ttlKey: string | undefined;
  retries: BackoffConfig;
  target: string;
}

export class DynamoCache implements Cache {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly o: DynamoCacheOptions,
    private readonly logger: Logger,
  ) {}

  async get(key: string): Promise<Uint8Array | undefined> {
    const out = await this.retry('get', key, () =>
      this.client.send(
        new (dynamo().GetItemCommand)({
          TableName: this.o.table,
          Key: { [this.o.hashKey]: { S: key } },
          ConsistentRead: this.o.consistentRead,
        }),
      ),
    );
    const item = out.Item;
    const data = item?.[this.o.dataKey]?.B;
    if (!item || !data) return undefined;
    // DynamoDB deletes expired items only eventually (within days): an expired one reads as absent.
    const expires = this.o.ttlKey ? item[this.o.ttlKey]?.N : undefined;
    if (expires !== undefined && Number(expires) * 1000 <= Date.now()) return undefined;
    return data;
  }

  async set(key: string, value: Uint8Array, ttlMs?: number): Promise<void> {
    await this.retry('set', key, () =>
      this.client.send(new (dynamo().PutItemCommand)(this.putInput(key, value, ttlMs))),
    );
  }

  /** Atomic: a conditional put that fails when an item with the key exists. */
  async add(key: string, value: Uint8Array, ttlMs?: number): Promise<boolean> {
    const input = this.putInput(key, value, ttlMs);
    input.ConditionExpression = 'attribute_not_exists(#k)';
    input.ExpressionAttributeNames = { '#k': this.o.hashKey };
    try {
      await this.retry('add', key, () => this.client.send(new (dynamo().PutItemCommand)(input)));
      return true;
    } catch (err) {
      if ((err as Error).cause instanceof Error && ((err as Error).cause as Error).name === ADD_REFUSED)
        return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.retry('delete', key, () =>
      this.client.send(
        new (dynamo().DeleteItemCommand)({ TableName: this.o.table, Key: { [this.o.hashKey]: { S: key } } }),
      ),
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private putInput(key: string, value: Uint8Array, ttlMs: number | undefined): PutItemCommandInput {
    const input: PutItemCommandInput = {
      TableName: this.o.table,
      Item: { [this.o.hashKey]: { S: key }, [this.o.dataKey]: { B: value } },
    };
    const ttl = ttlMs ?? this.o.defaultTtlMs;
    if (ttl !== undefined && ttl > 0 && this.o.ttlKey && input.Item) {
      input.Item[this.o.ttlKey] = { N: String(Math.floor((Date.now() + ttl) / 1000)) };
    }
    return input;
  }

  /** Retries with the `retries` backoff; refused credentials and a refused add fail at once. */
  private retry<T>(op: string, key: string, run: () => Promise<T>): Promise<T> {
    const nameOf = (err: unknown) => (err as { name?: string }).name;
    return withRetries(this.o.retries, run, {
      describe: (err) =>
        `aws_dynamodb cache ${op} of '${key}' in table '${this.o.table}': ${
          nameOf(err) === 'ResourceNotFoundException'
            ? `the table does not exist at ${this.o.target}`
            : awsErrorText(err, this.o.target)
        }`,
      fatal: (err) =>
        isCredentialError(err) || nameOf(err) === ADD_REFUSED || nameOf(err) === 'ResourceNotFoundException',
      onRetry: (text, wait) => this.logger.debug(`${text}; retrying in ${wait}ms`),
    });
  }
}

export const spec = defineComponent({
  name: 'aws_dynamodb',
  kind: 'cache',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Stores cache items in an Amazon DynamoDB table, one item per key.',
  description:
    "The key is stored as a string attribute named by `hash_key` (the table's partition key) and the value as a binary attribute named by `data_key`. With `ttl_key` (and a TTL given by the write or `default_ttl`) the expiry time is stored in that attribute as Unix seconds, for the table's TTL setting; an expired item reads as absent even before DynamoDB deletes it. `add` is a conditional put, atomic across every writer. Failed requests are retried with the `retries` backoff; refused credentials and a missing table fail at once.",
  fields: [
    field.string('table', 'The table to store items in.'),
    field.string('hash_key', 'The partition key of the table: the attribute that holds the cache key.'),
    field.string('data_key', 'The attribute that holds the cached value (binary).'),
    field.bool('consistent_read', 'Use strongly consistent reads.', { default: false, advanced: true }),
    field.duration('default_ttl', 'The TTL of items whose write gives none; needs `ttl_key`.', {
      optional: true,
      advanced: true,
      examples: ['60s', '5m', '36h'],
    }),
    field.string('ttl_key', "The attribute that holds the expiry time (Unix seconds) for the table's TTL.", {
      optional: true,
      advanced: true,
    }),
    {
      ...backoffField(
        { initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' },
        { advanced: true },
      ),
      name: 'retries',
      description: 'How failed requests are retried.',
    },
    ...awsSessionFields(),
  ],
  lint: (config) => lintAwsSession(config),
  examples: [
    {
      title: 'Deduplicate across instances through a table',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": "same"}'
pipeline:
  processors:
    - dedupe:
        cache: seen
        key: '\${! this.id }'
output:
  stdout: {}
cache_resources:
  - label: seen
    aws_dynamodb:
      table: dedupe
      hash_key: id
      data_key: data
      ttl_key: expires
      default_ttl: 24h
`,
    },
  ],
  async build(config, ctx): Promise<Cache> {
    const options = awsClientOptions(config, 'aws_dynamodb');
    await loadAws('dynamo');
    return new DynamoCache(
      dynamoClient(options),
      {
        table: config.table,
        hashKey: config.hash_key,
        dataKey: config.data_key,
        consistentRead: config.consistent_read,
        defaultTtlMs: config.default_ttl,
        ttlKey: config.ttl_key === '' ? undefined : config.ttl_key,
        retries: config.retries,
        target: describeTarget(options, 'DynamoDB'),
      },
      ctx.logger,
    );
  },
});
