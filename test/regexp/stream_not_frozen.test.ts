// The freeze: a `switch` check with a catastrophic pattern used to hold the event loop, so
// every stream stopped, /ping went silent and SIGTERM was ignored. With a linear-time engine the
// pathological messages pass, the ones after them arrive, /ping answers and SIGTERM stops nekton.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startNektonOnPort } from '../helpers/cli.js';
import { waitFor } from '../helpers/kit.js';

const PATHOLOGICAL = `${'a'.repeat(40)}!`;

function config(port: number): string {
  return `http:
  address: 127.0.0.1:${port}
logger:
  level: WARN
input:
  generate:
    interval: 10ms
    mapping: |
      let n = counter()
      root = if $n % 3 == 0 { "a".repeat(40) + "!" } else { "ok " + $n.string() }
pipeline:
  processors:
    - switch:
        - check: content().string().re_match("^(a+)+$")
          processors:
            - mapping: 'root = "matched " + content().string()'
        - processors:
            - mapping: 'root = content().string() + " passed"'
output:
  stdout: {}
`;
}

describe('a catastrophic pattern in a running stream', () => {
  it('does not freeze the process: later messages, /ping and SIGTERM all work', async () => {
    const { nekton, port, exited } = await startNektonOnPort(config);
    try {
      const lines = () => nekton.output().split('\n');
      // Three pathological messages went through the check, and messages after them arrived.
      await waitFor(
        () =>
          lines().filter((l) => l === `${PATHOLOGICAL} passed`).length >= 3 &&
          lines().includes('ok 10 passed'),
        { message: 'messages after the pathological ones', timeoutMs: 60_000 },
      );
      assert.ok(!lines().some((l) => l.startsWith('matched')), 'the pattern does not match');
      const ping = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(10_000) });
      assert.equal(ping.status, 200);
      assert.equal(await ping.text(), 'pong');
      nekton.kill('SIGTERM');
      const code = await Promise.race([
        exited,
        new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000)),
      ]);
      assert.equal(code, 0, nekton.output());
    } finally {
      nekton.kill('SIGKILL');
    }
  });
});
