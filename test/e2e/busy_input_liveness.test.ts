// A stream whose input always has a message ready (`generate` with no interval, forever) still
// answers /ping and /metrics and stops on SIGTERM: its read loops give the event loop a turn
// (src/engine/stream.ts, `turns`). Before, every request timed out and SIGTERM was never handled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startNektonOnPort } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

const config = (port: number) => `http:
  address: 127.0.0.1:${port}
logger:
  level: WARN
input:
  generate:
    count: 0
    interval: ""
    mapping: 'root = {"a": 1}'
pipeline:
  processors:
    - mapping: root.b = this.a + 1
output:
  drop: {}
`;

async function get(url: string): Promise<{ status: number; body: string }> {
  // A bound on the client only, so a server that never answers fails the test instead of hanging it.
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: await res.text() };
}

describe('a stream whose input never waits', () => {
  it('answers /ping and /metrics while it runs, and stops on SIGTERM', async () => {
    const { nekton: child, port, exited } = await startNektonOnPort(config);
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await get(`${base}/ping`).catch(() => null))?.status === 200, {
        message: '/ping never answered',
        timeoutMs: 20_000,
      });
      // The stream is busy, not stalled: the counter moves between two scrapes.
      const received = async () => {
        const { status, body } = await get(`${base}/metrics`);
        assert.equal(status, 200);
        const line = body.split('\n').find((l) => l.startsWith('input_received{'));
        return Number(line?.split(' ').pop() ?? 0);
      };
      const first = await received();
      await waitFor(async () => (await received()) > first, { message: 'input_received did not move' });
      assert.ok(first > 0, 'nothing was read');
      child.kill('SIGTERM');
      assert.equal(await exited, 0, child.output());
    } finally {
      child.kill('SIGKILL');
    }
  });
});
