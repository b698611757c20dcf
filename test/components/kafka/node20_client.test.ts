// What the pinned @platformatic/kafka 1.22 (the last release that installs on Node 20) cannot do
// is refused with a clear error, never ignored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildInput } from '../http_connectors/support.js';

describe('kafka_franz on the Node 20 client', () => {
  it('refuses instance_id (static group membership) when the input is built', async () => {
    await assert.rejects(
      buildInput(`input:
  kafka_franz:
    seed_brokers: [ 127.0.0.1:9092 ]
    topics: [ orders ]
    consumer_group: g
    instance_id: worker-1
output:
  drop: {}
`),
      /kafka_franz: instance_id \(static group membership\) is not supported by nekton/,
    );
  });

  it('builds the same input without instance_id', async () => {
    const { input } = await buildInput(`input:
  kafka_franz:
    seed_brokers: [ 127.0.0.1:9092 ]
    topics: [ orders ]
    consumer_group: g
output:
  drop: {}
`);
    await input.close();
  });
});
