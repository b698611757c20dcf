// The subprocess input: a program's stdout lines as messages; the end of the program ends the
// input, or starts it again with restart_on_exit; stderr lines and overlong lines are errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Input } from '../../../src/engine/component.js';
import { waitFor } from '../../helpers/kit.js';
import { input } from '../bloblang_components/build.js';

async function take(source: Input, count: number): Promise<string[]> {
  const out: string[] = [];
  while (out.length < count) {
    const txn = await source.read();
    if (txn === null) break;
    for (const m of txn.batch) out.push(m.text());
    await txn.ack(null);
  }
  return out;
}

describe('subprocess input', () => {
  it('reads each stdout line as a message and ends when the program exits', async () => {
    const source = await input({
      subprocess: { name: 'sh', args: ['-c', 'echo one; printf "two\\r\\nthree"'] },
    });
    assert.deepEqual(await take(source, 10), ['one', 'two', 'three']);
    assert.equal(await source.read(), null);
    await source.close();
  });

  it('runs the program again with restart_on_exit', async () => {
    const source = await input({
      subprocess: { name: 'sh', args: ['-c', 'echo run'], restart_on_exit: true },
    });
    assert.deepEqual(await take(source, 3), ['run', 'run', 'run']);
    await source.close();
  });

  it('skips stderr lines and lines over max_buffer as read errors, keeping the other lines', async () => {
    const source = await input({
      subprocess: {
        name: 'sh',
        args: [
          '-c',
          'echo kept; echo complaint >&2; sleep 0.1; echo 0123456789012345678901234567890123456789',
        ],
        max_buffer: 16,
      },
    });
    assert.deepEqual(await take(source, 10), ['kept']);
    await source.close();
  });

  it('does not connect to a program that does not exist', async () => {
    const source = await input({ subprocess: { name: 'no-such-program-nekton' } });
    const pending = source.read();
    const status = await waitFor(() => {
      const s = source.statuses()[0];
      return s?.error?.includes('executable file not found') ? s : null;
    });
    assert.equal(status.connected, false);
    await source.close();
    assert.equal(await pending, null);
  });
});
