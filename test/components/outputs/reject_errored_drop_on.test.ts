// The `reject_errored` and `drop_on` outputs: what reaches the child, what the input is told.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as dropOn } from '../../../src/components/outputs/drop_on.js';
import { spec as rejectErrored } from '../../../src/components/outputs/reject_errored.js';
import { BatchError } from '../../../src/engine/batch_error.js';
import type { ConnectionStatus, Output } from '../../../src/engine/component.js';
import { type Batch, Message } from '../../../src/message/message.js';
import { waitFor } from '../../helpers/kit.js';
import { lintYaml } from '../inputs/io_support.js';
import { childConfig, contextWith, ScriptedOutput } from './scripted_output.js';

function erroredMessage(text: string, reason: string): Message {
  const msg = new Message(text);
  msg.error = new Error(reason);
  return msg;
}

/** A child whose writes wait until released (a lost connection), or fail with a given error. */
class HeldOutput implements Output {
  readonly delivered: Batch[] = [];
  private release: Array<() => void> = [];
  held = 0;

  write(batch: Batch): Promise<void> {
    this.held++;
    return new Promise<void>((resolve) => {
      this.release.push(() => {
        this.delivered.push(batch);
        resolve();
      });
    });
  }

  releaseAll(): void {
    const waiting = this.release;
    this.release = [];
    for (const r of waiting) r();
  }

  statuses(): ConnectionStatus[] {
    return [];
  }

  async close(): Promise<void> {}
}

async function dropOnWith(config: Record<string, unknown>, child: ScriptedOutput | HeldOutput) {
  const ctx = contextWith(child instanceof ScriptedOutput ? [child] : []);
  const built = {
    ...ctx,
    buildOutput: async () => child,
  };
  return dropOn.build(
    {
      error: false,
      error_patterns: undefined,
      back_pressure: undefined,
      output: childConfig('child'),
      ...config,
    } as unknown as Parameters<typeof dropOn.build>[0],
    built,
  );
}

describe('reject_errored output', () => {
  it('passes a batch without errors through whole', async () => {
    const child = new ScriptedOutput('child');
    const out = await rejectErrored.build(childConfig('child'), contextWith([child]));
    await out.write([new Message('a'), new Message('b')]);
    assert.deepEqual(
      child.delivered.map((b) => b.map((m) => m.text())),
      [['a', 'b']],
    );
  });

  it('nacks an errored message without writing it, naming the processing error', async () => {
    const child = new ScriptedOutput('child');
    const out = await rejectErrored.build(childConfig('child'), contextWith([child]));
    await assert.rejects(
      out.write([erroredMessage('a', 'bad age')]),
      /rejecting due to failed processing: bad age/,
    );
    assert.equal(child.attempts, 0);
  });

  it('writes the clean part of a mixed batch and reports only the errored messages as failed', async () => {
    const child = new ScriptedOutput('child');
    const out = await rejectErrored.build(childConfig('child'), contextWith([child]));
    const batch = [new Message('a'), erroredMessage('b', 'boom'), new Message('c')];
    const err = await out.write(batch).then(
      () => assert.fail('a mixed batch must fail'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof BatchError);
    assert.equal(err.batch, batch);
    assert.deepEqual(err.failed, [1]);
    assert.deepEqual(
      child.delivered.map((b) => b.map((m) => m.text())),
      [['a', 'c']],
    );
  });

  it('adds the forwarded messages to the failed ones when the child fails too', async () => {
    const child = new ScriptedOutput('child', () => true);
    const out = await rejectErrored.build(childConfig('child'), contextWith([child]));
    const batch = [new Message('a'), erroredMessage('b', 'boom'), new Message('c')];
    await assert.rejects(out.write(batch), /child failed attempt 1/);
  });
});

describe('drop_on output', () => {
  it('acks a failed write when error is true', async () => {
    const out = await dropOnWith({ error: true }, new ScriptedOutput('child', () => true));
    await out.write([new Message('a')]);
  });

  it('passes the failure on when error is false and no pattern matches', async () => {
    const out = await dropOnWith(
      { error_patterns: ['connection refused'] },
      new ScriptedOutput('child', () => true),
    );
    await assert.rejects(out.write([new Message('a')]), /child failed attempt 1/);
  });

  it('drops a failed write whose error matches a pattern', async () => {
    const out = await dropOnWith(
      { error_patterns: ['failed attempt [0-9]+$'] },
      new ScriptedOutput('child', () => true),
    );
    await out.write([new Message('a')]);
  });

  it('delivers through the child when nothing fails', async () => {
    const child = new ScriptedOutput('child');
    const out = await dropOnWith({ error: true }, child);
    await out.write([new Message('a')]);
    assert.equal(child.delivered.length, 1);
  });

  it('drops after back_pressure, then drops at once until the stalled write settles', async () => {
    const child = new HeldOutput();
    const out = await dropOnWith({ error: true, back_pressure: '20ms' }, child);
    await out.write([new Message('first')]); // dropped after 20ms: acked
    assert.equal(child.held, 1);
    await out.write([new Message('second')]); // dropped at once: never reaches the child
    assert.equal(child.held, 1);
    child.releaseAll();
    await waitFor(async () => {
      const probe = out.write([new Message('third')]);
      await new Promise((r) => setImmediate(r));
      child.releaseAll();
      await probe;
      return child.delivered.some((b) => b[0]!.text() === 'third');
    });
  });

  it('nacks a message dropped for back pressure when error is false', async () => {
    const child = new HeldOutput();
    const out = await dropOnWith({ back_pressure: '10ms' }, child);
    await assert.rejects(out.write([new Message('a')]), /back pressure/);
    child.releaseAll();
  });

  it('lints error_patterns beside error: true, and a pattern that does not compile', () => {
    const lint = (body: string) =>
      lintYaml(`input:\n  stdin: {}\noutput:\n  drop_on:\n${body}    output:\n      drop: {}\n`);
    assert.deepEqual(lint("    error: true\n    error_patterns: [ 'refused' ]\n"), [
      "field 'error_patterns' is ineffective when 'error' is set to `true`",
    ]);
    const bad = lint("    error_patterns: [ 'a(b' ]\n");
    assert.equal(bad.length, 1);
    assert.match(bad[0]!, /^error pattern 0 failed to compile/);
  });
});
