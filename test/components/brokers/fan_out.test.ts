// Spec §9 scenarios 62–65 and the churn guarantee, against the fan-out broker directly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FanOutOutput } from '../../../src/components/brokers/fan_out.js';
import { RetryOutput } from '../../../src/components/outputs/retry.js';
import type { Batch } from '../../../src/message/message.js';
import { Message } from '../../../src/message/message.js';
import { waitFor } from '../../helpers/kit.js';
import { MemberOutput } from './support.js';

const msg = (text: string) => [new Message(text)];

describe('fan-out broker', () => {
  it('62: ten members each receive all 1000 messages; upstream acks only after all acked', async () => {
    const fanOut = new FanOutOutput();
    const members = Array.from({ length: 10 }, (_, i) => new MemberOutput(`m${i}`));
    for (const [i, m] of members.entries()) fanOut.set(String(i), m);
    const payloads = Array.from({ length: 1000 }, (_, i) => `{"n":${i}}`);
    await Promise.all(payloads.map((p) => fanOut.write(msg(p))));
    for (const m of members) assert.deepEqual(m.received, payloads);

    // One member holding back holds the upstream ack back.
    members[3]!.mode = 'hang';
    let settled = false;
    fanOut.write(msg('held')).then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(settled, false);
    for (const m of members.filter((x) => x.mode === 'ok')) assert.equal(m.received.at(-1), 'held');
  });

  it('63: members added and removed one at a time see exactly the messages sent while present', async () => {
    const fanOut = new FanOutOutput();
    const members = Array.from({ length: 5 }, (_, i) => new MemberOutput(`m${i}`));
    const expected = new Map(members.map((m) => [m, [] as string[]]));
    const present = new Set<MemberOutput>();
    let n = 0;
    const sendRound = async () => {
      for (let i = 0; i < 20; i++) {
        const p = `m-${n++}`;
        for (const m of present) expected.get(m)!.push(p);
        await fanOut.write(msg(p));
      }
    };
    for (const m of members) {
      fanOut.set(m.name, m);
      present.add(m);
      await sendRound();
    }
    for (const m of members.slice(0, -1)) {
      fanOut.remove(m.name);
      present.delete(m);
      await sendRound();
    }
    for (const m of members) assert.deepEqual(m.received, expected.get(m), m.name);
  });

  it('64: one member acks with an error: upstream gets that error', async () => {
    const fanOut = new FanOutOutput();
    fanOut.set('good', new MemberOutput('good'));
    fanOut.set('bad', new MemberOutput('bad', 'error', 'this is a test'));
    await assert.rejects(fanOut.write(msg('x')), { message: 'this is a test' });
  });

  it('64: the first error is reported even while another member never acks', async () => {
    const fanOut = new FanOutOutput();
    fanOut.set('stuck', new MemberOutput('stuck', 'hang'));
    fanOut.set('bad', new MemberOutput('bad', 'error', 'this is a test'));
    await assert.rejects(fanOut.write(msg('x')), { message: 'this is a test' });
  });

  it('65: with no members a message waits, and is delivered and acked once one is added', async () => {
    const fanOut = new FanOutOutput();
    let acked = false;
    const write = fanOut.write(msg('hello')).then(() => (acked = true));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(acked, false);
    const first = new MemberOutput('first');
    fanOut.set('first', first);
    await write;
    assert.deepEqual(first.received, ['hello']);
  });

  it('closing with writes waiting for a member fails them (the source redelivers), never drops them', async () => {
    const fanOut = new FanOutOutput();
    const waiting = fanOut.write(msg('x'));
    await fanOut.close();
    await assert.rejects(waiting);
  });

  it('10,000 messages while members come and go: each reaches exactly the members present at dispatch, acked once', async () => {
    const fanOut = new FanOutOutput();
    const pool = Array.from({ length: 8 }, (_, i) => new MemberOutput(`m${i}`));
    const expected = new Map(pool.map((m) => [m, new Set<string>()]));
    const present = new Set<MemberOutput>([pool[0]!]);
    fanOut.set(pool[0]!.name, pool[0]!);
    const acks = new Map<string, number>();
    const writes: Promise<void>[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let i = 0; i < 10_000; i++) {
      if (i % 50 === 0) {
        const m = pool[Math.floor(random() * pool.length)]!;
        if (present.has(m) && present.size > 1) {
          fanOut.remove(m.name);
          present.delete(m);
        } else if (!present.has(m)) {
          fanOut.set(m.name, m);
          present.add(m);
        }
      }
      const p = `p${i}`;
      for (const m of present) expected.get(m)!.add(p);
      writes.push(fanOut.write(msg(p)).then(() => void acks.set(p, (acks.get(p) ?? 0) + 1)));
      // Let some writes overlap membership changes.
      if (i % 97 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(writes);
    await waitFor(() => acks.size === 10_000, { message: 'every ack', intervalMs: 5 });
    assert.ok([...acks.values()].every((c) => c === 1));
    for (const m of pool) {
      assert.equal(m.received.length, expected.get(m)!.size, m.name);
      assert.deepEqual(new Set(m.received), expected.get(m), m.name);
    }
  });

  it('fan_out_sequential writes members in order', async () => {
    const order: string[] = [];
    const fanOut = new FanOutOutput({ sequential: true });
    for (const name of ['a', 'b', 'c']) {
      const m = new MemberOutput(name);
      const write = m.write.bind(m);
      m.write = async (batch) => {
        await new Promise((r) => setTimeout(r, name === 'a' ? 20 : 0));
        order.push(name);
        return write(batch);
      };
      fanOut.set(name, m);
    }
    await fanOut.write(msg('x'));
    assert.deepEqual(order, ['a', 'b', 'c']);
  });

  describe('groups (the batches one input read together)', () => {
    /** A member that takes a group in one call and records each call's batches. */
    class GroupMember extends MemberOutput {
      readonly groups: string[][] = [];
      failGroups = 0;
      async writeGroup(batches: readonly Batch[]): Promise<void> {
        this.attempts++;
        if (this.failGroups > 0) {
          this.failGroups--;
          throw new Error('group failed');
        }
        this.groups.push(batches.map((b) => b.map((m) => m.text()).join('+')));
        for (const b of batches) for (const m of b) this.received.push(m.text());
      }
    }
    const group = (...texts: string[]) => texts.map((t) => [new Message(t)]);

    it('reach each member in order: in one call when it takes groups, batch by batch otherwise', async () => {
      const fanOut = new FanOutOutput();
      const grouped = new GroupMember('grouped');
      const plain = new MemberOutput('plain');
      fanOut.set('g', grouped);
      fanOut.set('p', plain);
      await fanOut.writeGroup(group('a', 'b', 'c'));
      await fanOut.writeGroup(group('d', 'e'));
      assert.deepEqual(grouped.groups, [
        ['a', 'b', 'c'],
        ['d', 'e'],
      ]);
      assert.deepEqual(plain.received, ['a', 'b', 'c', 'd', 'e']);
      assert.equal(plain.attempts, 5);
    });

    it('give every member its own copies', async () => {
      const fanOut = new FanOutOutput();
      const seen: Batch[][] = [];
      for (const id of ['x', 'y']) {
        const m = new GroupMember(id);
        const writeGroup = m.writeGroup.bind(m);
        m.writeGroup = (batches) => {
          seen.push([...batches]);
          return writeGroup(batches);
        };
        fanOut.set(id, m);
      }
      const batches = group('a', 'b');
      await fanOut.writeGroup(batches);
      assert.equal(seen.length, 2);
      assert.notEqual(seen[0]![0]![0], seen[1]![0]![0]);
      assert.notEqual(seen[0]![0]![0], batches[0]![0]);
    });

    it('fail as a whole with the first member error', async () => {
      const fanOut = new FanOutOutput();
      fanOut.set('good', new GroupMember('good'));
      fanOut.set('bad', new MemberOutput('bad', 'error', 'member down'));
      await assert.rejects(fanOut.writeGroup(group('a', 'b')), { message: 'member down' });
    });

    it('are retried whole by a member retry, and the other members get no duplicates', async () => {
      const fanOut = new FanOutOutput({ copyPerMember: false });
      const backoff = { initialMs: 1, maxMs: 1, maxElapsedMs: 0 };
      const steady = new GroupMember('steady');
      const flaky = new GroupMember('flaky');
      flaky.failGroups = 2;
      fanOut.set('steady', new RetryOutput(steady, backoff, 0));
      fanOut.set('flaky', new RetryOutput(flaky, backoff, 0));
      await fanOut.writeGroup(group('a', 'b', 'c'));
      assert.equal(flaky.attempts, 3);
      assert.deepEqual(flaky.groups, [['a', 'b', 'c']]);
      assert.deepEqual(steady.groups, [['a', 'b', 'c']]);
      assert.equal(steady.attempts, 1);
    });

    it('fail when a removed member still holds them (failPendingWrites)', async () => {
      const fanOut = new FanOutOutput();
      const stuck = new MemberOutput('stuck', 'hang');
      fanOut.set('s', stuck);
      const written = fanOut.writeGroup(group('a', 'b'));
      fanOut.remove('s');
      fanOut.failPendingWrites(stuck, new Error('member removed'));
      await assert.rejects(written, { message: 'member removed' });
    });
  });
});
