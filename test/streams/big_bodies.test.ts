// Issue 17: a big config body never freezes the server. While ~1 MiB of mapping-heavy config is
// parsed, linted and built, `/ping` keeps answering; several such bodies at once all succeed.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bodies carry `${! }` interpolations on purpose
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readStreamBody } from '../../src/config/api_body.js';
import { envLookup } from '../../src/config/env_interpolation.js';
import { schemaProvider } from '../../src/config/schema.js';
import type { StreamsService } from '../../src/streams/service.js';
import { json, send, startService, testRegistry } from './support.js';

/**
 * The longest the server may go without answering `/ping`. Slices are ~20 ms, but on the shared
 * 2-core test machine (load 15+) the longest one step takes (composing the YAML document) reaches
 * ~0.6 s; the old code stalled for the whole job, 3 s of CPU here and 7–44 s on that machine.
 */
const MAX_PING_GAP_MS = 2000;

/**
 * The bound scales with the job: code that stalls goes unanswered for the whole job, sliced code
 * for its longest slice, so a gap under half the job (or under 2 s) tells them apart however
 * loaded the machine is.
 */
function assertAnsweredThroughout(maxGapMs: number, jobMs: number): void {
  const bound = Math.max(MAX_PING_GAP_MS, jobMs / 2);
  assert.ok(
    maxGapMs < bound,
    `/ping went unanswered for ${Math.round(maxGapMs)} ms of a ${Math.round(jobMs)} ms job`,
  );
}
/** Under the default API body limit of 1 MiB. */
const BODY_BYTES = 900 * 1024;

/** A stream of many `mapping` processors (all distinct), as JSON of about `bytes` bytes. */
function mappingHeavyConfig(bytes: number): { body: string; processors: number } {
  const processors: { mapping: string }[] = [];
  let size = 0;
  for (let i = 0; size < bytes - 500; i++) {
    const mapping = [
      'root = this',
      `root.field_${i} = this.a.b.c.or("x").uppercase() + "-${i}"`,
      `root.n_${i} = (this.n | 0) + ${i}`,
      'root.tags = this.tags.or([]).map_each(t -> t.string().lowercase())',
    ].join('\n');
    processors.push({ mapping });
    size += JSON.stringify({ mapping }).length + 4;
  }
  const config = {
    input: { generate: { mapping: 'root = deleted()', interval: '1h' } },
    pipeline: { processors },
    output: { drop: {} },
  };
  return { body: JSON.stringify(config, null, 1), processors: processors.length };
}

/** Pings every 20 ms until stopped; resolves with the longest time between two answers. */
function watchPings(svc: StreamsService): { stop(): Promise<{ maxGapMs: number; answered: number }> } {
  let running = true;
  let maxGapMs = 0;
  let answered = 0;
  const loop = (async () => {
    let last = performance.now();
    while (running) {
      const reply = await send(svc, 'GET', '/ping');
      assert.equal(reply.status, 200);
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { maxGapMs, answered };
    },
  };
}

describe('big config bodies (issue 17)', () => {
  let svc: StreamsService;
  const { body, processors } = mappingHeavyConfig(BODY_BYTES);
  before(async () => {
    svc = await startService();
  });
  after(async () => {
    await svc.stop();
  });

  it('keeps answering /ping while a ~1 MiB mapping-heavy body is parsed, linted and built', async () => {
    assert.ok(body.length > 800 * 1024 && body.length < 1024 * 1024, `body is ${body.length} bytes`);
    const pings = watchPings(svc);
    const started = performance.now();
    const reply = await send(svc, 'POST', '/streams/big', body);
    const jobMs = performance.now() - started;
    const { maxGapMs, answered } = await pings.stop();
    assert.equal(reply.status, 200, reply.body);
    assert.ok(answered > 0);
    assertAnsweredThroughout(maxGapMs, jobMs);
    const detail = json(await send(svc, 'GET', '/streams/big')) as {
      active: boolean;
      config: { pipeline: { processors: { mapping: string }[] } };
    };
    assert.equal(detail.active, true);
    assert.equal(detail.config.pipeline.processors.length, processors);
    assert.match(detail.config.pipeline.processors.at(-1)?.mapping ?? '', /root\.n_\d+ = /);
    assert.equal((await send(svc, 'DELETE', '/streams/big')).status, 200);
  });

  it('answers four such bodies at once, and /ping all along', async () => {
    const pings = watchPings(svc);
    const ids = ['big1', 'big2', 'big3', 'big4'];
    const replies = await Promise.all(ids.map((id) => send(svc, 'POST', `/streams/${id}`, body)));
    const { maxGapMs, answered } = await pings.stop();
    for (const reply of replies) assert.equal(reply.status, 200, reply.body);
    // Four bodies make a big heap whose collections alone can pause ~1 s on the loaded machine:
    // /ping must keep answering throughout, but the gap bound is the single body's test.
    assert.ok(
      answered >= 10,
      `/ping answered only ${answered} times (longest gap ${Math.round(maxGapMs)} ms)`,
    );
    for (const id of ids) {
      assert.equal((json(await send(svc, 'GET', `/streams/${id}`)) as { active: boolean }).active, true);
      assert.equal((await send(svc, 'DELETE', `/streams/${id}`)).status, 200);
    }
  });

  it('lints a big body as the one-go reader does (same messages, same lines), answering /ping all along', async () => {
    const config = JSON.parse(body) as { pipeline: { processors: Record<string, unknown>[] } };
    config.pipeline.processors[500] = { mapping: 'root = this.\nroot.x = 1' };
    config.pipeline.processors[900] = { mutation: 'root.a = ${! nope' };
    config.pipeline.processors[1200] = { log: { message: '${! this.( }' } };
    const text = JSON.stringify(config, null, 1);
    const pings = watchPings(svc);
    const started = performance.now();
    const reply = await send(svc, 'POST', '/streams/bad', text);
    const jobMs = performance.now() - started;
    const { maxGapMs } = await pings.stop();
    assert.equal(reply.status, 400);
    assertAnsweredThroughout(maxGapMs, jobMs);
    const lints = (json(reply) as { linting_errors: string[] }).linting_errors;
    const expected = readStreamBody(text, { provider: schemaProvider(testRegistry), env: envLookup({}) });
    assert.equal(expected.ok, false);
    assert.deepEqual(lints, expected.ok ? [] : expected.lints);
    assert.equal(lints.length, 3, lints.join('\n'));
    assert.equal((await send(svc, 'GET', '/streams/bad')).status, 404);
  });
});
