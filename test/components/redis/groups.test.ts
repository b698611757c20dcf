// redis_streams in transaction groups: the input hands the entries of one XREADGROUP reply out
// together and the output writes a group as one pipeline. Every entry must still be acked only
// once written, and a failed group must be delivered again, leaving nothing pending.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import {
  type RedisStreamsInputConfig,
  RedisStreamsReader,
} from '../../../src/components/inputs/redis_streams.js';
import { blockingAllowanceMs, redisTarget } from '../../../src/components/redis/client.js';
import { requireService, waitFor } from '../../helpers/kit.js';
import { TLS_OFF } from '../../helpers/tls.js';
import { Admin, pendingCount, REDIS_URL, readStream, startStream, uniqueName } from './helpers.js';

let admin: Admin;

function readerConfig(source: string, group: string): RedisStreamsInputConfig {
  return {
    url: REDIS_URL,
    kind: 'simple',
    master: '',
    client_name: 'nekton-test',
    tls: TLS_OFF,
    body_key: 'body',
    streams: [source],
    auto_replay_nacks: false,
    limit: 100,
    client_id: 'groups',
    consumer_group: group,
    create_streams: true,
    start_from_oldest: true,
    commit_period: 50,
    timeout: 100,
  };
}

describe('redis_streams groups', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('delivers every entry of a stream when a group write fails in the middle, leaving nothing pending', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('grp-src');
    const dest = uniqueName('grp-dst');
    admin.track(source, dest);
    const n = 300;
    for (let i = 0; i < n; i += 100) {
      const adds: Promise<unknown>[] = [];
      for (let j = i; j < i + 100; j++) adds.push(admin.send('XADD', source, '*', 'body', `msg-${j}`));
      await Promise.all(adds);
    }
    // XADD with id 0-0 always fails: msg-150's first write fails (its batch of the group).
    // The input replays the nacks itself (auto_replay_nacks: false): replays queued in the engine
    // wait behind a read blocked on an idle stream, so they would only go once new entries came.
    const counter = `fail-${uniqueName('c')}`;
    const run = await startStream(`
input:
  redis_streams:
    url: ${REDIS_URL}
    streams: [ '${source}' ]
    consumer_group: g
    client_id: w1
    limit: 100
    auto_replay_nacks: false
    commit_period: 50ms
    timeout: 100ms
output:
  redis_streams:
    url: ${REDIS_URL}
    stream: '${dest}'
    id: '\${! if content().string() == "msg-150" && count("${counter}") == 1 { "0-0" } else { "*" } }'
`);
    try {
      await waitFor(async () => new Set((await readStream(admin, dest)).map(([, f]) => f.body)).size === n, {
        message: `all ${n} entries in the destination`,
        timeoutMs: 15_000,
      });
      const bodies = (await readStream(admin, dest)).map(([, f]) => f.body);
      assert.deepEqual([...new Set(bodies)].sort(), Array.from({ length: n }, (_, i) => `msg-${i}`).sort());
      assert.equal(bodies.filter((b) => b === 'msg-150').length, 1, 'the failed entry is written once');
      // The output names the XADD that failed (issue 29): only msg-150 is replayed, the other
      // entries of its group were written and are not written again.
      assert.equal(bodies.length, n, 'entries of the failed group that were written went again');
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
    } finally {
      await run.stop();
    }
  });

  it('hands buffered entries out as a group and settles any subset of it', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const source = uniqueName('grp-unit');
    admin.track(source);
    for (let i = 0; i < 10; i++) await admin.send('XADD', source, '*', 'body', `e${i}`);
    const target = await redisTarget(readerConfig(source, 'g'));
    const reader = new RedisStreamsReader(readerConfig(source, 'g'), target, pino({ level: 'silent' }));
    await reader.connect();
    try {
      const first = await reader.read();
      assert.equal(first?.batch[0]?.text(), 'e0');
      const group = reader.readBufferedGroup(100);
      assert.ok(group, 'the rest of the reply is buffered');
      assert.deepEqual(
        group.batches.map((b) => b[0]?.text()),
        ['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9'],
      );
      assert.equal(reader.readBufferedGroup(100), undefined, 'nothing left buffered');
      const [b1, b2, b3, b4, ...rest] = group.batches;
      const nackedId = b3![0]!.getMeta('redis_stream');
      await first!.ack(null);
      await group.ack(null, [b2!, b4!]);
      await group.ack(new Error('failed'), [b3!]);
      await group.ack(null, [b1!, ...rest]);
      // The nacked entry comes back (it is still pending in Redis) and is acked this time.
      const again = await reader.read();
      assert.equal(again?.batch[0]?.text(), 'e3');
      assert.equal(again?.batch[0]?.getMeta('redis_stream'), nackedId);
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 1, {
        message: 'nine entries acked',
      });
      await again!.ack(null);
      await waitFor(async () => (await pendingCount(admin, source, 'g')) === 0, {
        message: 'nothing pending',
      });
    } finally {
      await reader.close();
    }
  });

  it('times blocking commands out after their own timeout, others after the command timeout', () => {
    assert.equal(blockingAllowanceMs(['XADD', 's', '*', 'body', 'x']), 0);
    assert.equal(
      blockingAllowanceMs([
        'XREADGROUP',
        'GROUP',
        'g',
        'c',
        'COUNT',
        '10',
        'BLOCK',
        '1500',
        'STREAMS',
        's',
        '>',
      ]),
      1500,
    );
    assert.equal(blockingAllowanceMs(['XREADGROUP', 'GROUP', 'BLOCK', 'c', 'STREAMS', 'BLOCK', '>']), 0);
    assert.equal(blockingAllowanceMs(['XREAD', 'BLOCK', '0', 'STREAMS', 's', '$']), Number.POSITIVE_INFINITY);
    assert.equal(blockingAllowanceMs(['blpop', 'list', '2.5']), 2500);
    assert.equal(blockingAllowanceMs(['BLMPOP', '3', '1', 'l', 'LEFT']), 3000);
  });
});
