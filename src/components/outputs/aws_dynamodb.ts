// The `aws_dynamodb` output: each message becomes an item of the table, its attributes from
// interpolated `string_columns` and from paths of the JSON document (`json_map_columns`).

import type { AttributeValue, DynamoDBClient, WriteRequest } from '@aws-sdk/client-dynamodb';
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, durationMs, field } from '../../config/spec.js';
import { Backoff, type BackoffConfig, sleep } from '../../engine/backoff.js';
import { BatchError } from '../../engine/batch_error.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import { NotConnectedError } from '../../engine/errors.js';
import type { Batch, Message } from '../../message/message.js';
import { atPath, describeActiveTable, dynamoClient, toAttribute } from '../aws/dynamodb.js';
import { dynamo, loadAws } from '../aws/library.js';
import { awsClientOptions, awsError, describeTarget, isNetworkError } from '../aws/session.js';
import { type AwsSessionLintView, awsSessionFields, lintAwsSession } from '../fields/aws.js';
import { backoffField } from '../fields/backoff.js';
import { batchingField } from '../fields/batching.js';
import { refuseProblems } from '../fields/config_problems.js';

/** The most items one BatchWriteItem request takes. */
const BATCH_WRITE_LIMIT = 25;

interface DynamoWriterOptions {
  table: string;
  stringColumns: Record<string, Interpolation>;
  jsonMapColumns: Record<string, string>;
  ttlMs: number;
  ttlKey: string;
  maxRetries: number;
  backoff: BackoffConfig;
  target: string;
}

class DynamoWriter implements OutputWriter {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly o: DynamoWriterOptions,
  ) {}

  connect(): Promise<void> {
    return describeActiveTable(this.client, this.o.table, this.o.target, 'aws_dynamodb');
  }

  async write(batch: Batch): Promise<void> {
    const items: (Record<string, AttributeValue> | null)[] = [];
    const failed = new Set<number>();
    let firstError: unknown = null;
    for (let i = 0; i < batch.length; i++) {
      try {
        items.push(this.item(batch, i));
      } catch (err) {
        items.push(null);
        failed.add(i);
        firstError ??= err;
      }
    }
    for (let start = 0; start < items.length; start += BATCH_WRITE_LIMIT) {
      const indices: number[] = [];
      for (let i = start; i < Math.min(items.length, start + BATCH_WRITE_LIMIT); i++)
        if (items[i]) indices.push(i);
      if (indices.length === 0) continue;
      try {
        await this.batchWrite(indices.map((i) => items[i] as Record<string, AttributeValue>));
      } catch (err) {
        firstError ??= err;
        // As the reference: put the items one by one, so only those that fail are written again.
        for (const i of indices) {
          try {
            await this.client.send(
              new (dynamo().PutItemCommand)({ TableName: this.o.table, Item: items[i] ?? {} }),
            );
          } catch (e) {
            failed.add(i);
            firstError = e;
          }
        }
      }
    }
    if (failed.size === 0) return;
    const reason =
      firstError instanceof Error && !('$metadata' in firstError) && !isNetworkError(firstError)
        ? firstError
        : awsError(firstError, this.o.target, `aws_dynamodb write to table '${this.o.table}'`);
    if (failed.size === batch.length)
      throw isNetworkError(firstError) ? new NotConnectedError(reason.message) : reason;
    throw new BatchError(
      batch,
      [...failed].sort((a, b) => a - b),
      reason,
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** Writes the items, retrying the unprocessed ones up to `max_retries` times with the backoff. */
  private async batchWrite(items: Record<string, AttributeValue>[]): Promise<void> {
    let pending: WriteRequest[] = items.map((Item) => ({ PutRequest: { Item } }));
    const backoff = new Backoff(this.o.backoff);
    for (let attempt = 0; ; attempt++) {
      const out = await this.client.send(
        new (dynamo().BatchWriteItemCommand)({ RequestItems: { [this.o.table]: pending } }),
      );
      pending = out.UnprocessedItems?.[this.o.table] ?? [];
      if (pending.length === 0) return;
      const wait = attempt < this.o.maxRetries ? backoff.next() : null;
      if (wait === null)
        throw new Error(`aws_dynamodb: ${pending.length} items left unprocessed after retries`);
      await sleep(wait);
    }
  }

  private item(batch: Batch, i: number): Record<string, AttributeValue> {
    const item: Record<string, AttributeValue> = {};
    if (this.o.ttlMs > 0 && this.o.ttlKey !== '')
      item[this.o.ttlKey] = { N: String(Math.floor((Date.now() + this.o.ttlMs) / 1000)) };
    for (const [k, v] of Object.entries(this.o.stringColumns)) item[k] = { S: v.render(batch, i) };
    const columns = Object.entries(this.o.jsonMapColumns);
    if (columns.length > 0) {
      const doc = (batch[i] as Message).structured();
      for (const [k, path] of columns) {
        const attr = toAttribute(atPath(doc, path));
        // An empty column name spreads a map's attributes over the item.
        if (k === '' && attr.M) Object.assign(item, attr.M);
        else item[k] = attr;
      }
    }
    return item;
  }
}

function lint(config: AwsSessionLintView & { string_columns: object; json_map_columns: object }): string[] {
  const problems = lintAwsSession(config);
  if (Object.keys(config.string_columns).length === 0 && Object.keys(config.json_map_columns).length === 0)
    problems.push('at least one of string_columns or json_map_columns is required');
  return problems;
}

export const spec = defineComponent({
  name: 'aws_dynamodb',
  kind: 'output',
  status: 'beta',
  categories: ['Services', 'AWS'],
  summary: 'Inserts messages into an Amazon DynamoDB table, one item per message.',
  description:
    "Each item gets a string attribute per `string_columns` entry (interpolated) and an attribute per `json_map_columns` entry, the value at that dot path of the message's JSON document (an empty path is the whole document; an empty column name spreads a map over the item). As in the reference, JSON numbers are stored as strings (S), objects as maps, arrays as lists. A batch is written with BatchWriteItem (25 items per request), unprocessed items are retried up to `max_retries` times with `backoff`; when a request fails the items are put one by one, and only the ones that fail are written again. With `ttl` and `ttl_key` each item carries its expiry time (Unix seconds) for the table's TTL. The table must exist and be ACTIVE: the output checks it when connecting.",
  fields: [
    field.string('table', 'The table to write to.'),
    field.map(
      field.interpolated('string_columns', 'String attributes of each item, interpolated per message.', {
        default: {},
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
        examples: [{ id: '${!json("id")}', title: '${!json("body.title")}', full_content: '${!content()}' }],
      }),
    ),
    field.map(
      field.string('json_map_columns', "Attributes taken from dot paths of the message's JSON document.", {
        default: {},
        examples: [{ user: 'path.to.user', whole_document: '.' }, { '': '.' }],
      }),
    ),
    field.string('ttl', 'How long items live: their expiry time is stored in `ttl_key`.', {
      default: '',
      advanced: true,
      check: 'duration',
      examples: ['60s', '5m', '36h'],
    }),
    field.string('ttl_key', 'The attribute that holds the expiry time (Unix seconds).', {
      default: '',
      advanced: true,
    }),
    field.int('max_in_flight', 'The most batches written at once.', { default: 64 }),
    batchingField(),
    ...awsSessionFields(),
    field.int(
      'max_retries',
      'How many times unprocessed items are written again (0: no limit but the backoff).',
      {
        default: 3,
        advanced: true,
      },
    ),
    backoffField({ initial_interval: '1s', max_interval: '5s', max_elapsed_time: '30s' }, { advanced: true }),
  ],
  lint,
  examples: [
    {
      title: 'Documents into a table keyed by their id',
      config: `input:
  generate:
    count: 10
    interval: ''
    mapping: 'root = {"id": uuid_v4(), "n": counter(), "tags": ["a", "b"]}'
output:
  aws_dynamodb:
    table: documents
    string_columns:
      id: '\${! this.id }'
    json_map_columns:
      n: n
      tags: tags
    region: us-east-1
`,
    },
  ],
  async build(config, ctx): Promise<Output> {
    refuseProblems(lint(config), 'aws_dynamodb: ');
    const options = awsClientOptions(config, 'aws_dynamodb');
    await loadAws('dynamo');
    const jsonMapColumns: Record<string, string> = {};
    // The reference's `.` means the whole document.
    for (const [k, v] of Object.entries(config.json_map_columns)) jsonMapColumns[k] = v === '.' ? '' : v;
    const writer = new DynamoWriter(dynamoClient(options), {
      table: config.table,
      stringColumns: config.string_columns,
      jsonMapColumns,
      ttlMs: durationMs(config.ttl, 'ttl'),
      ttlKey: config.ttl_key,
      maxRetries: config.max_retries <= 0 ? Number.POSITIVE_INFINITY : config.max_retries,
      backoff: config.backoff,
      target: describeTarget(options, 'DynamoDB'),
    });
    return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight, batching: config.batching });
  },
});
