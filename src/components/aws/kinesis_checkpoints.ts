// The aws_kinesis input's checkpoint table (the reference's schema: hash key `StreamID`, range key
// `ShardID`, attributes `SequenceNumber`, `ClientID`, `LeaseTimeout`): shard leases and the last
// delivered sequence number of each shard.

import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamo } from './library.js';
import { awsError } from './session.js';

export interface CheckpointTableOptions {
  table: string;
  create: boolean;
  billingMode: string;
  readCapacityUnits: number;
  writeCapacityUnits: number;
  clientId: string;
  leaseMs: number;
  target: string;
}

const isConditionFailure = (err: unknown) =>
  (err as { name?: string }).name === 'ConditionalCheckFailedException';

export class CheckpointTable {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly o: CheckpointTableOptions,
  ) {}

  /** Checks the table (creating it when `create` is set) and waits until it is ACTIVE. */
  async ensure(): Promise<void> {
    const what = `aws_kinesis checkpoint table '${this.o.table}'`;
    for (let tries = 0; tries < 60; tries++) {
      let status: string | undefined;
      try {
        status = (await this.client.send(new (dynamo().DescribeTableCommand)({ TableName: this.o.table })))
          .Table?.TableStatus;
      } catch (err) {
        if ((err as { name?: string }).name !== 'ResourceNotFoundException')
          throw awsError(err, this.o.target, what, 'dynamodb.');
        if (!this.o.create)
          throw new Error(`${what} does not exist at ${this.o.target} (set dynamodb.create to create it)`);
        await this.create();
        continue;
      }
      if (status === 'ACTIVE') return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${what} did not become active`);
  }

  private async create(): Promise<void> {
    const provisioned = this.o.billingMode === 'PROVISIONED';
    try {
      await this.client.send(
        new (dynamo().CreateTableCommand)({
          TableName: this.o.table,
          AttributeDefinitions: [
            { AttributeName: 'StreamID', AttributeType: 'S' },
            { AttributeName: 'ShardID', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'StreamID', KeyType: 'HASH' },
            { AttributeName: 'ShardID', KeyType: 'RANGE' },
          ],
          BillingMode: provisioned ? 'PROVISIONED' : 'PAY_PER_REQUEST',
          ...(provisioned
            ? {
                ProvisionedThroughput: {
                  ReadCapacityUnits: this.o.readCapacityUnits,
                  WriteCapacityUnits: this.o.writeCapacityUnits,
                },
              }
            : {}),
        }),
      );
    } catch (err) {
      if ((err as { name?: string }).name !== 'ResourceInUseException')
        throw awsError(
          err,
          this.o.target,
          `aws_kinesis creating checkpoint table '${this.o.table}'`,
          'dynamodb.',
        );
    }
  }

  private leaseTimeout(): string {
    return new Date(Date.now() + this.o.leaseMs).toISOString();
  }

  /**
   * Claims a shard that no client holds, whose lease ran out, or that this client held before;
   * returns the checkpointed sequence number ('' for none), or null when another client holds it.
   */
  async claim(stream: string, shard: string): Promise<string | null> {
    try {
      const out = await this.client.send(
        new (dynamo().UpdateItemCommand)({
          TableName: this.o.table,
          Key: { StreamID: { S: stream }, ShardID: { S: shard } },
          UpdateExpression: 'SET ClientID = :me, LeaseTimeout = :lease',
          ConditionExpression: 'attribute_not_exists(ClientID) OR ClientID = :me OR LeaseTimeout < :now',
          ExpressionAttributeValues: {
            ':me': { S: this.o.clientId },
            ':lease': { S: this.leaseTimeout() },
            ':now': { S: new Date().toISOString() },
          },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return out.Attributes?.SequenceNumber?.S ?? '';
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw awsError(err, this.o.target, `aws_kinesis claiming shard '${shard}' of '${stream}'`, 'dynamodb.');
    }
  }

  /** The stored sequence number of a shard, '' when none (for tests and diagnostics). */
  async sequence(stream: string, shard: string): Promise<string> {
    const out = await this.client.send(
      new (dynamo().GetItemCommand)({
        TableName: this.o.table,
        Key: { StreamID: { S: stream }, ShardID: { S: shard } },
      }),
    );
    return out.Item?.SequenceNumber?.S ?? '';
  }

  /**
   * Stores the sequence number and renews the lease; `final` gives the shard up. False when
   * another client has taken the shard over.
   */
  async checkpoint(stream: string, shard: string, sequence: string, final: boolean): Promise<boolean> {
    const item: Record<string, { S: string }> = { StreamID: { S: stream }, ShardID: { S: shard } };
    if (sequence !== '') item.SequenceNumber = { S: sequence };
    if (!final) {
      item.ClientID = { S: this.o.clientId };
      item.LeaseTimeout = { S: this.leaseTimeout() };
    }
    try {
      await this.client.send(
        new (dynamo().PutItemCommand)({
          TableName: this.o.table,
          Item: item,
          ConditionExpression: 'ClientID = :me',
          ExpressionAttributeValues: { ':me': { S: this.o.clientId } },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw awsError(
        err,
        this.o.target,
        `aws_kinesis checkpointing shard '${shard}' of '${stream}'`,
        'dynamodb.',
      );
    }
  }
}
