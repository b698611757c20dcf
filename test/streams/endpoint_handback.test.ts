// With prefixing off two streams may claim the same path (last writer wins, spec §3.7); when the
// current owner goes, the previous one that still holds the path serves it again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { json, send, startService } from './support.js';

/** A stream whose `http_server` at /post answers every request with `name`. */
const answering = (name: string) =>
  JSON.stringify({
    input: { http_server: { path: '/post' } },
    pipeline: { processors: [{ mapping: `root = "${name}"` }] },
    output: { sync_response: {} },
  });

describe('shared stream endpoints with prefixing off', () => {
  it('B deleted → A answers its endpoint again, and the takeover is logged at warn', async () => {
    const svc = await startService({ prefixStreamEndpoints: false });
    const warnings: string[] = [];
    svc.logger.warn = ((msg: string) => void warnings.push(String(msg))) as typeof svc.logger.warn;
    try {
      assert.equal((await send(svc, 'POST', '/streams/a', answering('A'))).status, 200);
      assert.equal((await send(svc, 'POST', '/post', 'x')).body, 'A');
      assert.equal((await send(svc, 'POST', '/streams/b', answering('B'))).status, 200);
      assert.equal((await send(svc, 'POST', '/post', 'x')).body, 'B');
      assert.ok(
        warnings.some((w) => /\/post/.test(w) && /\bb\b/.test(w) && /\ba\b/.test(w)),
        `takeover warning naming both streams, got ${JSON.stringify(warnings)}`,
      );
      assert.equal((await send(svc, 'DELETE', '/streams/b')).status, 200);
      const after = await send(svc, 'POST', '/post', 'x');
      assert.equal(after.status, 200);
      assert.equal(after.body, 'A');
      assert.ok('/post' in json(await send(svc, 'GET', '/endpoints')));
      // The last holder gone, the path is gone too (decision 6).
      assert.equal((await send(svc, 'DELETE', '/streams/a')).status, 200);
      assert.equal((await send(svc, 'POST', '/post', 'x')).status, 404);
    } finally {
      await svc.stop();
    }
  });

  it('a claimant leaving from the middle changes nothing; the serving one leaving skips it', async () => {
    const svc = await startService({ prefixStreamEndpoints: false });
    try {
      for (const id of ['a', 'b', 'c']) {
        assert.equal((await send(svc, 'POST', `/streams/${id}`, answering(id.toUpperCase()))).status, 200);
      }
      assert.equal((await send(svc, 'DELETE', '/streams/b')).status, 200);
      assert.equal((await send(svc, 'POST', '/post', 'x')).body, 'C');
      assert.equal((await send(svc, 'DELETE', '/streams/c')).status, 200);
      assert.equal((await send(svc, 'POST', '/post', 'x')).body, 'A');
    } finally {
      await svc.stop();
    }
  });
});
