// The `dynamic` output at component level with fault-injecting members: retries, a member that
// never acknowledges, removal, and membership churn while 10,000 messages flow.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DynamicOutput } from '../../../src/components/outputs/dynamic.js';
import type { Output } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/kit.js';
import { AckLedger, MemberOutput, testRegistry } from './support.js';

function dynamicWith(...members: MemberOutput[]) {
  const map = new Map<string, Output>(members.map((m) => [m.name, m]));
  const registry = testRegistry(map, new AckLedger());
  const endpoints: string[] = [];
  const ctx = createTestContext(
    { type: 'dynamic', path: 'root.output' },
    { registry, endpoints: { register: (path) => void endpoints.push(path) } },
  );
  return { output: new DynamicOutput(ctx, { closeWaitMs: 50 }), ctx, endpoints };
}

const body = (name: string) => `test_member:\n  name: ${name}\n`;
const msg = (text: string) => [new Message(text)];

/** A dynamic output with a member that works and one that fails until told otherwise. */
async function goodAndFlaky() {
  const good = new MemberOutput('good');
  const flaky = new MemberOutput('flaky', 'error');
  const { output } = dynamicWith(good, flaky);
  await output.setFromBody('good', body('good'));
  await output.setFromBody('flaky', body('flaky'));
  return { good, flaky, output };
}

describe('dynamic output', () => {
  it('retries a failing member on its own: the upstream write succeeds once, no duplicates elsewhere', async () => {
    const { good, flaky, output } = await goodAndFlaky();
    let done = false;
    const write = output.write(msg('x')).then(() => (done = true));
    await waitFor(() => flaky.attempts >= 1, { message: 'a first failed attempt', intervalMs: 5 });
    assert.equal(done, false);
    flaky.mode = 'ok';
    await write;
    assert.deepEqual(good.received, ['x']);
    assert.deepEqual(flaky.received, ['x']);
    assert.ok(flaky.attempts >= 2);
    await output.close();
  });

  it('takes a group in one call: every member gets all of it, and a failing member retries it whole', async () => {
    const { good, flaky, output } = await goodAndFlaky();
    let done = false;
    const write = output.writeGroup([msg('a'), msg('b'), msg('c')]).then(() => (done = true));
    await waitFor(() => flaky.attempts >= 3, {
      message: 'a first failed attempt of the group',
      intervalMs: 5,
    });
    assert.equal(done, false);
    flaky.mode = 'ok';
    await write;
    assert.deepEqual(good.received, ['a', 'b', 'c']);
    assert.deepEqual(flaky.received, ['a', 'b', 'c']);
    await output.close();
  });

  it('a member that never acks holds the upstream ack; removing it fails the held write for redelivery', async () => {
    const good = new MemberOutput('good');
    const stuck = new MemberOutput('stuck', 'hang');
    const { output } = dynamicWith(good, stuck);
    await output.setFromBody('good', body('good'));
    await output.setFromBody('stuck', body('stuck'));
    let outcome = 'pending';
    const held = output.write(msg('held')).then(
      () => (outcome = 'acked'),
      (err: Error) => (outcome = err.message),
    );
    await waitFor(() => good.received.length === 1, { message: 'the good member to get it', intervalMs: 5 });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(outcome, 'pending');
    await output.remove('stuck');
    await held;
    assert.equal(outcome, "dynamic output 'stuck' was removed");
    await output.write(msg('after'));
    assert.deepEqual(good.received, ['held', 'after']);
    assert.equal(stuck.attempts, 1);
    await output.close();
  });

  it('a config that does not build leaves the previous member in place', async () => {
    const a = new MemberOutput('a');
    const { output } = dynamicWith(a);
    await output.setFromBody('m', body('a'));
    await assert.rejects(output.setFromBody('m', body('missing')), /no test member missing/);
    await assert.rejects(output.setFromBody('m', 'not_a_component: {}'));
    assert.deepEqual(output.ids(), ['m']);
    await output.write(msg('x'));
    assert.deepEqual(a.received, ['x']);
    await output.close();
  });

  it('registers its endpoints under the prefix', async () => {
    const { ctx, endpoints } = dynamicWith();
    const { spec } = await import('../../../src/components/outputs/dynamic.js');
    const built = await spec.build({ outputs: {}, prefix: '/p' }, ctx);
    assert.deepEqual(endpoints, ['/p/outputs', '/p/outputs/{id}', '/p/outputs/{id}/uptime']);
    await built.close();
  });

  it('10,000 messages while members are POSTed and DELETEd: each reaches exactly the members present at dispatch, acked once', async () => {
    const pool = Array.from({ length: 6 }, (_, i) => new MemberOutput(`m${i}`));
    const { output } = dynamicWith(...pool);
    await output.setFromBody('m0', body('m0'));
    const expected = new Map(pool.map((m) => [m.name, new Set<string>()]));
    const acks = new Map<string, number>();
    const writes: Promise<void>[] = [];
    let churn = Promise.resolve();
    for (let i = 0; i < 10_000; i++) {
      if (i % 200 === 0) {
        const m = pool[(i / 200) % pool.length]!;
        const present = output.ids().includes(m.name);
        // Membership changes run concurrently with the writes, as HTTP requests would.
        churn = churn.then(() =>
          present && output.ids().length > 1
            ? output.remove(m.name)
            : output.setFromBody(m.name, body(m.name)),
        );
      }
      const p = `p${i}`;
      for (const id of output.ids()) expected.get(id)!.add(p);
      writes.push(output.write(msg(p)).then(() => void acks.set(p, (acks.get(p) ?? 0) + 1)));
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    await churn;
    await Promise.all(writes);
    assert.equal(acks.size, 10_000);
    assert.ok([...acks.values()].every((c) => c === 1));
    for (const m of pool) {
      assert.equal(m.received.length, expected.get(m.name)!.size, m.name);
      assert.deepEqual(new Set(m.received), expected.get(m.name), m.name);
    }
    await output.close();
  });
});
