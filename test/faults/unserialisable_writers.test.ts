// A message whose structure JSON cannot carry (NaN, ±Inf) reaching a writer fails that write
// only. Before, stdout threw it from a timer (the process exited and id 1 was lost with it) and
// sync_response left the HTTP request unanswered with its socket open.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { parseOutputCodec } from '../../src/components/outputs/codec.js';
import { StreamWriter } from '../../src/components/outputs/stdout.js';
import { ResponseStore } from '../../src/components/sync_response_store.js';
import { Message } from '../../src/message/message.js';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const unwritable = () => Message.fromStructured({ id: 2, a: Number.POSITIVE_INFINITY });

describe('writers meeting a value JSON cannot carry', () => {
  it('stdout fails only the write holding it; ids 1 and 3 written in the same flush go out', async () => {
    const sink = new PassThrough();
    let written = '';
    sink.on('data', (d) => (written += d));
    const writer = new StreamWriter(sink, parseOutputCodec('lines'));
    await writer.connect();
    const results = await Promise.allSettled([
      writer.write([new Message('{"id":1}')]),
      writer.write([unwritable()]),
      writer.write([Message.fromStructured({ id: 3 })]),
    ]);
    assert.equal(results[0]!.status, 'fulfilled');
    assert.equal(results[2]!.status, 'fulfilled');
    assert.equal(results[1]!.status, 'rejected');
    assert.match(String((results[1] as PromiseRejectedResult).reason), /json: unsupported value: \+Inf/);
    assert.equal(written, '{"id":1}\n{"id":3}\n');
    // The writer still works afterwards.
    await writer.write([new Message('{"id":4}')]);
    assert.equal(written, '{"id":1}\n{"id":3}\n{"id":4}\n');
  });

  it('the sync response store refuses it when it is added, so the request gets an error answer', () => {
    const store = new ResponseStore();
    assert.throws(() => store.add([unwritable()]), /unsupported value/);
    assert.deepEqual(store.messages(), []);
    store.add([new Message('{"id":3}')]);
    assert.equal(store.messages()[0]!.text(), '{"id":3}');
  });

  it('an http_server request whose mapping makes NaN is answered, and so is the next one', async () => {
    const dir = tempDir();
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: error\ninput:\n  http_server:\n    path: /in\npipeline:\n  processors:\n    - mapping: |\n        root = this\n        root.v = if this.id == 2 { "NaN".number() } else { 0 }\n    - sync_response: {}\noutput:\n  drop: {}\n`,
    );
    const nekton = startNekton(['-c', config]);
    try {
      const send = (body: string) =>
        waitFor(
          async () => {
            try {
              const res = await fetch(`http://127.0.0.1:${port}/in`, {
                method: 'POST',
                body,
                signal: AbortSignal.timeout(5000),
              });
              return { status: res.status, body: await res.text() };
            } catch {
              return undefined;
            }
          },
          { timeoutMs: 15_000 },
        );
      assert.deepEqual(await send('{"id":1}'), { status: 200, body: '{"id":1,"v":0}' });
      // The mapping failed for id 2: its message (flagged, content as it came in) is the answer.
      assert.deepEqual(await send('{"id":2,"a":1e400}'), { status: 200, body: '{"id":2,"a":1e400}' });
      assert.deepEqual(await send('{"id":3}'), { status: 200, body: '{"id":3,"v":0}' });
      assert.equal(nekton.exitCode, null, nekton.output());
    } finally {
      nekton.kill('SIGTERM');
    }
  });
});
