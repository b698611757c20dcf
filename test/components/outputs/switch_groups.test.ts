// The `switch` output on a group: every batch is routed first, then each case output gets its
// share in one call; strict mode fails the group before anything is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { SwitchOutput } from '../../../src/components/outputs/switch.js';
import type { Output } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { CallRecorder, GroupCallRecorder } from '../../helpers/kit.js';

const group = (...values: number[]) => values.map((n) => [new Message(JSON.stringify({ n }))]);

function switchOver(outputs: Output[], strict = false) {
  const ctx = createTestContext({ type: 'switch', path: 'root.output' });
  const cases = [
    { check: ctx.mapping('this.n < 2', 'cases.0.check'), output: outputs[0]!, continue: false },
    { check: ctx.mapping('this.n < 4', 'cases.1.check'), output: outputs[1]!, continue: false },
  ];
  return new SwitchOutput(cases, strict, pino({ level: 'silent' }));
}

describe('switch output groups', () => {
  it('gives each case output its share of the group in one call, in order', async () => {
    const low = new GroupCallRecorder();
    const mid = new GroupCallRecorder();
    const output = switchOver([low, mid]);
    await output.writeGroup!(group(0, 2, 1, 3, 9));
    assert.deepEqual(low.calls, [['{"n":0}', '{"n":1}']]);
    assert.deepEqual(mid.calls, [['{"n":2}', '{"n":3}']]);
  });

  it('in strict mode fails the whole group, writing nothing, when a message matches no case', async () => {
    const low = new GroupCallRecorder();
    const mid = new GroupCallRecorder();
    const output = switchOver([low, mid], true);
    await assert.rejects(output.writeGroup!(group(0, 9)), /no switch output conditions were met/);
    assert.deepEqual(low.calls, []);
  });

  it('takes no groups when a case output takes none', () => {
    assert.equal(switchOver([new GroupCallRecorder(), new CallRecorder()]).writeGroup, undefined);
  });
});
