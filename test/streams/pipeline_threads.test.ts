// Streams mode and `pipeline.threads`: the streams of a process share its spare cores; a stream
// updated through the API keeps its thread (the new instance takes it as the old one stops), and
// a stream that found none free starts its thread when another stream is deleted.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { waitFor } from '../helpers/wait.js';
import { send, startService } from './support.js';

const spare = Math.min(1, availableParallelism() - 1);

const config = (factor: number) =>
  JSON.stringify({
    input: { generate: { interval: '1ms', batch_size: 20, mapping: 'root = {"n": counter()}' } },
    pipeline: { threads: 2, processors: [{ mapping: `root.m = this.n * ${factor}` }] },
    output: { drop: {} },
  });

describe('pipeline threads in streams mode', () => {
  it('follow a stream through an update, and go to a waiting stream when one is deleted', async () => {
    assert.ok(availableParallelism() >= 2, 'this machine has one core: nothing to share');
    const service = await startService();
    const threadsOf = (id: string) => service.manager.get(id)?.stream.pipelineThreads ?? -1;
    try {
      assert.equal((await send(service, 'POST', '/streams/a', config(2))).status, 200);
      assert.equal(threadsOf('a'), spare);

      // The update's new instance starts beside the old one, then takes its thread.
      assert.equal((await send(service, 'PUT', '/streams/a', config(3))).status, 200);
      await waitFor(() => threadsOf('a') === spare, { message: 'the updated stream has no thread' });

      // Every spare core is taken: the next stream waits, and gets one when `a` goes.
      assert.equal((await send(service, 'POST', '/streams/b', config(4))).status, 200);
      assert.equal(threadsOf('b'), 0);
      assert.equal((await send(service, 'DELETE', '/streams/a')).status, 200);
      await waitFor(() => threadsOf('b') === spare, { message: 'the waiting stream got no thread' });
    } finally {
      await service.stop();
    }
  });
});
