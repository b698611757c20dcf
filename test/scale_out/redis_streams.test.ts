// Scale-out over a Redis Streams consumer group: two nekton instances share the group, one is
// SIGKILLed halfway and replaced (same consumer name, so it re-reads what the dead one left pending).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from '@redis/client';
import { REDIS_URL, requireService } from '../helpers/kit.js';
import { describeResult, runScaleOut, type ScaleOutBroker, scaleN, uniqueName } from './harness.js';

function redisStreamsBroker(): ScaleOutBroker {
  const stream = uniqueName('nekton_scale');
  const group = uniqueName('group');
  const client = createClient({ url: REDIS_URL });
  return {
    name: 'redis_streams',
    async setup() {
      await client.connect();
      // The group exists before anything is published, from the start of the stream.
      await client.sendCommand(['XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM']);
    },
    inputYaml: (consumer) => `input:
  redis_streams:
    url: redis://127.0.0.1:6379
    streams: [ ${stream} ]
    consumer_group: ${group}
    client_id: nekton-${consumer}
    start_from_oldest: true
    limit: 100
    commit_period: 100ms
`,
    async publish(bodies) {
      for (let at = 0; at < bodies.length; at += 1000) {
        await Promise.all(
          bodies.slice(at, at + 1000).map((b) => client.sendCommand(['XADD', stream, '*', 'body', b])),
        );
      }
    },
    async teardown() {
      await client.sendCommand(['DEL', stream]);
      client.destroy();
    },
  };
}

describe('scaling out over a Redis Streams consumer group', () => {
  it('two instances, one SIGKILLed halfway and replaced: every message reaches PostgreSQL', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    if (!(await requireService(t, 'postgres'))) return;
    const n = scaleN();
    const result = await runScaleOut(redisStreamsBroker(), n, Math.max(60_000, n * 5));
    t.diagnostic(describeResult(result));
    assert.equal(result.distinct, n, 'messages are missing');
    assert.ok(result.distinctAtKill < n, 'the kill came after every message was written: nothing was tested');
    assert.ok(
      (result.perInstance.a ?? 0) > 0 && (result.perInstance.b ?? 0) + (result.perInstance.b2 ?? 0) > 0,
    );
  });
});
