// The reported crash loop: a redis_streams entry holding 1e400 made `root = this` throw in the
// stdout writer, the process exited, and on restart the pending entry did it again. Through the
// built CLI: the process stays up, ids 1 and 3 arrive, id 2 arrives intact, all are acked.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Admin, pendingCount, REDIS_URL, uniqueName } from '../components/redis/helpers.js';
import { startNekton, tempDir } from '../helpers/cli.js';
import { requireService, waitFor } from '../helpers/kit.js';

let admin: Admin | null = null;

describe('values from redis_streams (built CLI)', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('delivers an entry holding 1e400 intact and stays up', async (t) => {
    if (!(await requireService(t, 'redis')) || admin === null) return;
    const stream = uniqueName('values');
    admin.track(stream);
    for (const body of ['{"id":1}', '{"id":2,"a":1e400}', '{"id":3}'])
      await admin.send('XADD', stream, '*', 'body', body);
    const config = join(tempDir('nekton-values-redis-'), 'config.yaml');
    writeFileSync(
      config,
      `http:\n  enabled: false\nlogger:\n  level: warn\ninput:\n  redis_streams:\n    url: ${REDIS_URL}\n    streams: [ '${stream}' ]\n    consumer_group: g\n    commit_period: 50ms\n    timeout: 100ms\npipeline:\n  processors:\n    - mapping: root = this\noutput:\n  stdout: {}\n`,
    );
    const nekton = startNekton(['-c', config]);
    try {
      await waitFor(() => nekton.output().includes('{"id":3}'), {
        message: 'id 3 on stdout',
        timeoutMs: 15_000,
      });
      const lines = nekton
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      assert.deepEqual(lines, ['{"id":1}', '{"a":1e400,"id":2}', '{"id":3}']);
      await waitFor(async () => (await pendingCount(admin!, stream, 'g')) === 0, {
        message: 'every entry acked',
      });
      assert.equal(nekton.exitCode, null, nekton.output());
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
