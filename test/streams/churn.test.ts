// Streams API churn: create/update/patch/delete cycles on 50 ids at once (each id's operations in
// order, the ids concurrently). Every answer matches a model of the last successful operation per id,
// the final state equals the model, and after deleting everything no handles are left behind.
// CHURN_OPS raises the number of operations (the soak runs 10,000); FUZZ_SEED replays a run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { countFromEnv, exposeGc, prng } from '../faults/support.js';
import { json, send, startService } from './support.js';

const IDS = 50;
const OPS = countFromEnv('CHURN_OPS', 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 5150);

function config(version: number): string {
  return JSON.stringify({
    input: { generate: { interval: '1s', mapping: `root = deleted() # v${version}` } },
    output: { drop: {} },
  });
}

/** Passes with ?chilled=true (no lint) but cannot be built: the mapping does not parse. */
const BROKEN = JSON.stringify({
  input: { generate: { interval: '1s', mapping: 'root = deleted()' } },
  pipeline: { processors: [{ mapping: 'root = (' }] },
  output: { drop: {} },
});

function versionOf(detail: unknown): number {
  const mapping = (detail as { config: { input: { generate: { mapping: string } } } }).config.input.generate
    .mapping;
  return Number(/# v(\d+)/.exec(mapping)?.[1]);
}

function handleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

describe(`streams API churn (${OPS} operations on ${IDS} ids, seed ${SEED})`, () => {
  let service: StreamsService;

  before(async () => {
    service = await startService();
  });

  after(async () => {
    await service.stop();
  });

  it('answers every operation as the model says, ends in the model state, and leaks no handles', async () => {
    const random = prng(SEED);
    const model = new Map<string, number>(); // id → version of the running config
    let version = 0;
    const ids = Array.from({ length: IDS }, (_, i) => `churn_${i}`);
    const plans = new Map<string, number>(ids.map((id) => [id, 0]));
    for (let i = 0; i < OPS; i++) {
      const id = ids[Math.floor(random() * IDS)] as string;
      plans.set(id, (plans.get(id) ?? 0) + 1);
    }
    // Pre-draw every operation so the run is the same whatever the interleaving.
    const choices = new Map(
      ids.map((id) => [id, Array.from({ length: plans.get(id) ?? 0 }, () => random())]),
    );

    const gc = exposeGc();
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 200));
      gc();
    };
    await settle();
    const handlesBefore = handleCounts();
    const rssBefore = process.memoryUsage().rss;
    const heapBefore = process.memoryUsage().heapUsed;
    const counts: Record<string, number> = {};

    async function runId(id: string): Promise<void> {
      for (const choice of choices.get(id) ?? []) {
        const present = model.has(id);
        const op = ['create', 'update', 'patch', 'delete', 'broken', 'read'][
          Math.floor(choice * 6)
        ] as string;
        counts[op] = (counts[op] ?? 0) + 1;
        const v = ++version;
        const what = `${op} ${id} (present: ${present})`;
        if (op === 'create') {
          const r = await send(service, 'POST', `/streams/${id}`, config(v));
          assert.equal(r.status, present ? 400 : 200, `${what}: ${r.body}`);
          if (!present) model.set(id, v);
        } else if (op === 'update') {
          const r = await send(service, 'PUT', `/streams/${id}`, config(v));
          assert.equal(r.status, present ? 200 : 404, `${what}: ${r.body}`);
          if (present) model.set(id, v);
        } else if (op === 'patch') {
          const patch = JSON.stringify({ input: { generate: { mapping: `root = deleted() # v${v}` } } });
          const r = await send(service, 'PATCH', `/streams/${id}`, patch);
          assert.equal(r.status, present ? 200 : 404, `${what}: ${r.body}`);
          if (present) model.set(id, v);
        } else if (op === 'delete') {
          const timeout = choice < 0.6 ? '?timeout=0s' : '';
          const r = await send(service, 'DELETE', `/streams/${id}${timeout}`);
          assert.equal(r.status, present ? 200 : 404, `${what}: ${r.body}`);
          model.delete(id);
        } else if (op === 'broken') {
          // An update that cannot build keeps the previous stream (nekton decision 2).
          const r = await send(service, 'PUT', `/streams/${id}?chilled=true`, BROKEN);
          assert.equal(r.status, present ? 502 : 404, `${what}: ${r.body}`);
        } else {
          const r = await send(service, 'GET', `/streams/${id}`);
          assert.equal(r.status, present ? 200 : 404, what);
          if (present) assert.equal(versionOf(json(r)), model.get(id), what);
        }
      }
    }
    await Promise.all(ids.map(runId));

    const listed = Object.keys(json(await send(service, 'GET', '/streams'))).sort();
    assert.deepEqual(listed, [...model.keys()].sort(), 'the listed streams differ from the model');
    for (const [id, v] of model) {
      const detail = json(await send(service, 'GET', `/streams/${id}`)) as { active: boolean };
      assert.equal(versionOf(detail), v, `${id} runs the wrong config`);
      assert.equal(detail.active, true, `${id} is not active`);
    }

    // Remove everything; then the process must be back to the handles it started with.
    for (const id of model.keys())
      assert.equal((await send(service, 'DELETE', `/streams/${id}`)).status, 200);
    assert.deepEqual(json(await send(service, 'GET', '/streams')), {});
    await settle();
    const handlesAfter = handleCounts();
    const rssAfter = process.memoryUsage().rss;
    const heapAfter = process.memoryUsage().heapUsed;
    const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
    console.log(
      `churn: ${OPS} ops ${JSON.stringify(counts)}; rss ${mb(rssBefore)} → ${mb(rssAfter)}, heap ${mb(heapBefore)} → ${mb(heapAfter)}; handles ${JSON.stringify(handlesBefore)} → ${JSON.stringify(handlesAfter)}`,
    );
    for (const kind of ['Timeout', 'TCPServerWrap', 'FSReqCallback']) {
      assert.ok(
        (handlesAfter[kind] ?? 0) <= (handlesBefore[kind] ?? 0) + 2,
        `${kind} handles grew from ${handlesBefore[kind] ?? 0} to ${handlesAfter[kind]}`,
      );
    }
    assert.ok(heapAfter - heapBefore < 50 * 1048576, `heap grew by ${mb(heapAfter - heapBefore)}`);
  });
});
