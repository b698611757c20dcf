import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/outputs/fallback.js';
import { Message } from '../../../src/message/message.js';
import { childConfig, contextWith, ScriptedOutput } from './scripted_output.js';

async function fallback(...outputs: ScriptedOutput[]) {
  return spec.build(
    outputs.map((o) => childConfig(o.name)),
    contextWith(outputs),
  );
}

describe('fallback output', () => {
  it('writes only to the first output while it succeeds', async () => {
    const primary = new ScriptedOutput('primary');
    const secondary = new ScriptedOutput('secondary');
    await (await fallback(primary, secondary)).write([new Message('a')]);
    assert.equal(primary.delivered.length, 1);
    assert.equal(secondary.attempts, 0);
    assert.equal(primary.delivered[0]![0]!.getMeta('fallback_error'), undefined);
  });

  it('passes a failed batch to the next output with fallback_error set, leaving the original alone', async () => {
    const primary = new ScriptedOutput('primary', () => true);
    const secondary = new ScriptedOutput('secondary');
    const original = new Message('a');
    await (await fallback(primary, secondary)).write([original]);
    assert.equal(secondary.delivered.length, 1);
    const passed = secondary.delivered[0]![0]!;
    assert.equal(passed.text(), 'a');
    assert.equal(passed.getMeta('fallback_error'), 'primary failed attempt 1');
    assert.equal(original.getMeta('fallback_error'), undefined);
  });

  it('tries every tier in order and rejects with the last error when all fail', async () => {
    const outputs = ['one', 'two', 'three'].map((n) => new ScriptedOutput(n, () => true));
    await assert.rejects((await fallback(...outputs)).write([new Message('a')]), /three failed/);
    assert.deepEqual(
      outputs.map((o) => o.attempts),
      [1, 1, 1],
    );
  });

  it('reports every child status and closes them all', async () => {
    const a = new ScriptedOutput('a');
    const b = new ScriptedOutput('b');
    const out = await fallback(a, b);
    assert.deepEqual(
      out.statuses().map((s) => s.label),
      ['a', 'b'],
    );
    await out.close();
    assert.ok(a.closed && b.closed);
  });

  it('refuses an empty list', async () => {
    await assert.rejects(async () => fallback(), /at least one output/);
  });
});
