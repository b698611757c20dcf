// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Bloblang interpolations, not JS templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/processors/sleep.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { listenerLeakWarnings } from '../../helpers/kit.js';

describe('sleep processor', () => {
  it('sleeps the duration once per message of the batch', async () => {
    const p = await spec.build({ duration: '25ms' }, createTestContext());
    const started = Date.now();
    const out = await p.process([new Message('a'), new Message('b')]);
    assert.ok(Date.now() - started >= 45, 'slept less than 2 x 25ms');
    assert.equal(out[0]!.length, 2);
  });

  it('reads an interpolated duration per message', async () => {
    const p = await spec.build({ duration: '${! json("wait") }' }, createTestContext());
    const started = Date.now();
    await p.process([new Message('{"wait":"30ms"}'), new Message('{"wait":"0s"}')]);
    const took = Date.now() - started;
    assert.ok(took >= 28 && took < 500, `took ${took}ms`);
  });

  it('ends a sleep early when closed', async () => {
    const p = await spec.build({ duration: '10s' }, createTestContext());
    const pending = Promise.resolve(p.process([new Message('a')]));
    await p.close();
    await assert.rejects(pending, /processor stopped/);
  });

  it('sleeps for many messages at once without a listener-leak warning', async () => {
    // An output's processors run for every message in flight at once: 64 sleeps here.
    const p = await spec.build({ duration: '20ms' }, createTestContext());
    const warnings = await listenerLeakWarnings(async () => {
      const outs = await Promise.all(Array.from({ length: 64 }, (_, i) => p.process([new Message(`${i}`)])));
      assert.equal(outs.length, 64);
    });
    assert.deepEqual(warnings, []);
    await p.close();
  });

  it('refuses a static duration that does not parse', () => {
    assert.throws(() => spec.build({ duration: 'forever' }, createTestContext()), /invalid duration/);
  });
});
