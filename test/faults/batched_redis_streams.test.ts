// redis_streams with batching, one XADD in 1,000 failing (issue 29): the output names the message
// whose XADD failed, so only it is nacked and replayed; the other 49 of its batch are not added twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Admin, REDIS_URL, startStream, uniqueName } from '../components/redis/helpers.js';
import { requireService, waitFor } from '../helpers/kit.js';
import { linesFile } from './yaml_stream.js';

const TOTAL = 1000;

describe('redis_streams with batching, one failing XADD in 1,000 messages', () => {
  it('adds every message once and replays only the one whose XADD failed', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const admin = await Admin.open();
    const stream = uniqueName('batchfail');
    const poisoned = uniqueName('batchfail-poison');
    admin.track(stream, poisoned);
    t.after(() => admin.cleanup());
    // m500 goes to a key that holds a string: its XADD fails (WRONGTYPE) until the key is deleted.
    await admin.send('SET', poisoned, 'not a stream');
    const file = linesFile(Array.from({ length: TOTAL }, (_, i) => `m${i}`));
    const running = await startStream(`
input:
  file:
    paths: [ ${file} ]
    codec: lines
output:
  redis_streams:
    url: ${REDIS_URL}
    stream: '\${! if content().string() == "m500" { "${poisoned}" } else { "${stream}" } }'
    max_in_flight: 4
    batching:
      count: 50
`);
    try {
      await waitFor(async () => Number(await admin.send('XLEN', stream)) >= TOTAL - 1, {
        message: 'the others',
        timeoutMs: 20_000,
      });
      await admin.send('DEL', poisoned);
      await Promise.race([
        running.done,
        new Promise((_, reject) => setTimeout(() => reject(new Error('the stream did not end')), 30_000)),
      ]);
    } finally {
      await running.stop();
    }
    const entries = (await admin.send('XRANGE', stream, '-', '+')) as unknown as [string, string[]][];
    const bodies = entries.map(([, fields]) => fields[fields.indexOf('body') + 1]);
    assert.equal(
      new Set(bodies).size,
      bodies.length,
      `${bodies.length - new Set(bodies).size} messages were added twice`,
    );
    assert.equal(bodies.length, TOTAL - 1, 'a message is missing from the stream');
    assert.equal(Number(await admin.send('XLEN', poisoned)), 1, 'the failed message was not replayed once');
  });
});
