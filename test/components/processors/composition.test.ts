// `processors`, `parallel` and `try_catch`: child processor lists run as the reference runs them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as parallel } from '../../../src/components/processors/parallel.js';
import { spec as processorsSpec } from '../../../src/components/processors/processors.js';
import { spec as tryCatch } from '../../../src/components/processors/try_catch.js';
import { registry as builtins } from '../../../src/components/registry.js';
import type { ComponentSpec } from '../../../src/config/spec.js';
import type { Processor } from '../../../src/engine/component.js';
import type { ComponentConfig } from '../../../src/engine/context.js';
import { Registry } from '../../../src/engine/registry.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { messages } from './archive_helpers.js';

let child = 0;
function proc(type: string, config: unknown): ComponentConfig {
  return { type, label: '', config, processors: [], path: `root.test.${child++}`, raw: config };
}
const mapping = (text: string) => proc('mapping', text);
const texts = (batches: Message[][]) => batches.map((b) => b.map((m) => m.text()));

/** A processor that waits for a tick, counting how many messages are inside it at once. */
function counting() {
  const state = { inFlight: 0, most: 0, seen: 0 };
  const spec: ComponentSpec<Record<string, never>, Processor> = {
    name: 'count_in_flight',
    kind: 'processor',
    status: 'stable',
    summary: 'test',
    fields: [],
    build: () => ({
      process: async (batch) => {
        state.inFlight++;
        state.seen++;
        state.most = Math.max(state.most, state.inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        state.inFlight--;
        return [batch];
      },
      close: async () => {},
    }),
  };
  const registry = new Registry([...builtins.list(), spec as ComponentSpec]);
  return { state, ctx: () => createTestContext({}, { registry }) };
}

describe('processors processor', () => {
  it('runs its children in order over the batch, as any processor list', async () => {
    const p = await processorsSpec.build(
      [mapping('root = content().string() + "-1"'), mapping('root = content().string() + "-2"')],
      createTestContext(),
    );
    assert.deepEqual(texts((await p.process(messages(['a', 'b']))) as Message[][]), [['a-1-2', 'b-1-2']]);
  });

  it('flags a message a child fails and passes it on', async () => {
    const p = await processorsSpec.build([mapping('root = this.n.number()')], createTestContext());
    const [[ok, bad]] = (await p.process(messages(['{"n":"1"}', '{}']))) as Message[][];
    assert.equal(ok!.text(), '1');
    assert.equal(ok!.error, null);
    assert.match(bad!.error?.message ?? '', /expected number value/);
  });
});

describe('parallel processor', () => {
  it('runs each message alone, at most `cap` at once, and keeps the order', async () => {
    const { state, ctx } = counting();
    const p = await parallel.build(
      { cap: 2, processors: [proc('count_in_flight', {}), mapping('root = batch_size()')] },
      ctx(),
    );
    const out = (await p.process(messages(['a', 'b', 'c', 'd', 'e', 'f']))) as Message[][];
    assert.deepEqual(texts(out), [['1', '1', '1', '1', '1', '1']]);
    assert.equal(state.seen, 6);
    assert.equal(state.most, 2);
  });

  it('with cap 0 runs every message of the batch at once', async () => {
    const { state, ctx } = counting();
    const p = await parallel.build({ cap: 0, processors: [proc('count_in_flight', {})] }, ctx());
    const batch = messages(['a', 'b', 'c', 'd', 'e']);
    const out = (await p.process(batch)) as Message[][];
    assert.deepEqual(texts(out), [['a', 'b', 'c', 'd', 'e']]);
    assert.equal(state.most, 5);
  });

  it('flags failed messages and drops deleted ones without losing the others', async () => {
    const p = await parallel.build(
      { cap: 0, processors: [mapping('root = if this.drop == true { deleted() } else { this.n.number() }')] },
      createTestContext(),
    );
    const [out] = (await p.process(
      messages(['{"n":"1"}', '{"drop":true}', '{}', '{"n":"4"}']),
    )) as Message[][];
    assert.deepEqual(
      out!.map((m) => [m.text(), m.error === null]),
      [
        ['1', true],
        ['{}', false],
        ['4', true],
      ],
    );
  });
});

describe('try_catch processor', () => {
  const build = (catchers: ComponentConfig[], errorMetadata = 'error') =>
    tryCatch.build(
      {
        processors: [mapping('root = this.n.number()'), mapping('root = content().string() + " ok"')],
        catch: catchers,
        error_metadata: errorMetadata,
      },
      createTestContext(),
    );

  it('skips the rest for a failed message, moves its error into metadata and runs catch on it', async () => {
    const p = await build([mapping('root = "caught: " + @error.what')]);
    const [out] = (await p.process(messages(['{"n":"1"}', '{"x":1}']))) as Message[][];
    assert.equal(out![0]!.text(), '1 ok');
    assert.equal(out![0]!.error, null);
    assert.match(out![1]!.text(), /^caught: .*expected number value/);
    assert.equal(out![1]!.error, null, 'the flag is cleared');
  });

  it('with no catch records the error under error_metadata and clears the flag', async () => {
    const p = await build([], 'failure');
    const [[msg]] = (await p.process(messages(['{}']))) as Message[][];
    assert.equal(msg!.error, null);
    assert.equal(msg!.text(), '{}', 'the failed message passes on as it was');
    assert.match(String((msg!.getMeta('failure') as { what: string }).what), /expected number value/);
  });

  it('sends a message that failed before the block straight to catch', async () => {
    const p = await build([mapping('root = "recovered " + @error.what')]);
    const failed = new Message('{"n":"5"}');
    failed.error = new Error('earlier failure');
    const [[msg]] = (await p.process([failed])) as Message[][];
    assert.equal(msg!.text(), 'recovered earlier failure');
    assert.equal(msg!.error, null);
  });

  it('flags a new failure raised inside catch', async () => {
    const p = await build([mapping('root = this.missing.number()')]);
    const [[msg]] = (await p.process(messages(['{}']))) as Message[][];
    assert.match(msg!.error?.message ?? '', /expected number value/);
  });
});
