// What the DynamoDB components share: the client, JSON values as attribute values (as the
// reference converts them), and the errors that name the table.

import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamo } from './library.js';
import { type AwsClientOptions, awsError } from './session.js';

export function dynamoClient(options: AwsClientOptions): DynamoDBClient {
  return new (dynamo().DynamoDBClient)(options);
}

/**
 * A JSON value as a DynamoDB attribute, as the reference converts it: objects are maps, arrays
 * lists, strings S, booleans BOOL, null NULL. Numbers are S, as the reference stores the numbers
 * of a parsed JSON document (kept as text, so no precision is lost).
 */
export function toAttribute(value: unknown): AttributeValue {
  if (value === null || value === undefined) return { NULL: true };
  if (typeof value === 'string') return { S: value };
  if (typeof value === 'number' || typeof value === 'bigint') return { S: String(value) };
  if (typeof value === 'boolean') return { BOOL: value };
  if (Array.isArray(value)) return { L: value.map(toAttribute) };
  if (value instanceof Uint8Array) return { B: value };
  if (typeof value === 'object') {
    const m: Record<string, AttributeValue> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) m[k] = toAttribute(v);
    return { M: m };
  }
  return { S: String(value) };
}

/** The value at a dot path (`a.b.0`) of a JSON document; `''` is the whole document. */
export function atPath(root: unknown, path: string): unknown {
  if (path === '') return root;
  let node: unknown = root;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(part)] : (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Checks that the table exists and is ACTIVE; the error names the table and the endpoint. */
export async function describeActiveTable(
  client: DynamoDBClient,
  table: string,
  target: string,
  component: string,
): Promise<void> {
  let status: string | undefined;
  try {
    const out = await client.send(new (dynamo().DescribeTableCommand)({ TableName: table }));
    status = out.Table?.TableStatus;
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceNotFoundException')
      throw new Error(`${component}: table '${table}' does not exist at ${target}`);
    throw awsError(err, target, `${component} table '${table}'`);
  }
  if (status !== 'ACTIVE')
    throw new Error(`${component}: table '${table}' must be active (it is ${status ?? 'unknown'})`);
}
