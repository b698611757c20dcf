// The `broker` and `sequence` inputs through the engine: merged streams where each message keeps
// its own ack, copies, batching, and inputs read one after another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Output } from '../../../src/engine/component.js';
import { AckLedger, MemberOutput, streamFromYaml, testRegistry } from './support.js';

function setup() {
  const ledger = new AckLedger();
  const sink = new MemberOutput('sink');
  return { ledger, sink, registry: testRegistry(new Map<string, Output>([['sink', sink]]), ledger) };
}

describe('broker input', () => {
  it('merges every input; each message is acked to its own source exactly once', async () => {
    const { ledger, sink, registry } = setup();
    const { stream } = await streamFromYaml(
      `input:
  broker:
    inputs:
      - test_source: { count: 300, prefix: a }
      - test_source: { count: 200, prefix: b }
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    assert.equal(sink.received.length, 500);
    assert.equal(new Set(sink.received).size, 500);
    assert.equal(ledger.outcomes.size, 500);
    for (const [p, outcomes] of ledger.outcomes) assert.deepEqual(outcomes, [null], p);
  });

  it('a failed write nacks only the messages it carried', async () => {
    const { ledger, sink, registry } = setup();
    const write = sink.write.bind(sink);
    sink.write = async (batch) => {
      if (batch.some((m) => m.text() === 'b3')) throw new Error('no b3');
      return write(batch);
    };
    const { stream } = await streamFromYaml(
      `input:
  broker:
    inputs:
      - test_source: { count: 5, prefix: a }
      - test_source: { count: 5, prefix: b }
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    for (const [p, outcomes] of ledger.outcomes) assert.deepEqual(outcomes, [p === 'b3' ? 'no b3' : null], p);
  });

  it('copies repeats the inputs', async () => {
    const { sink, registry } = setup();
    const { stream } = await streamFromYaml(
      `input:
  broker:
    copies: 2
    inputs:
      - test_source: { count: 3 }
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    assert.equal(sink.received.length, 6);
  });

  it('batching groups merged messages; the batch ack settles every source message', async () => {
    const { ledger, sink, registry } = setup();
    const sizes: number[] = [];
    const write = sink.write.bind(sink);
    sink.write = (batch) => {
      sizes.push(batch.length);
      return write(batch);
    };
    const { stream } = await streamFromYaml(
      `input:
  broker:
    batching: { count: 4 }
    inputs:
      - test_source: { count: 6, prefix: a }
      - test_source: { count: 6, prefix: b }
pipeline:
  threads: 1
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    assert.deepEqual(sizes, [4, 4, 4]);
    assert.equal(ledger.outcomes.size, 12);
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, [null]);
  });

  it('batching with a period flushes a partial batch; the input end flushes the rest', async () => {
    const { sink, registry } = setup();
    const { stream } = await streamFromYaml(
      `input:
  broker:
    batching: { count: 100, period: 10ms }
    inputs:
      - test_source: { count: 5 }
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    assert.equal(sink.received.length, 5);
  });
});

describe('sequence input', () => {
  it('reads the inputs one after another and acks each message to its source', async () => {
    const { ledger, sink, registry } = setup();
    const { stream } = await streamFromYaml(
      `input:
  sequence:
    inputs:
      - test_source: { count: 3, prefix: first }
      - test_source: { count: 2, prefix: second }
pipeline:
  threads: 1
output:
  test_member: { name: sink }
`,
      { registry },
    );
    await stream.run();
    assert.deepEqual(sink.received, ['first0', 'first1', 'first2', 'second0', 'second1']);
    for (const outcomes of ledger.outcomes.values()) assert.deepEqual(outcomes, [null]);
  });

  it('refuses a sharded_join it cannot do', async () => {
    const { registry } = setup();
    await assert.rejects(
      streamFromYaml(
        `input:
  sequence:
    sharded_join: { type: full-outer, id_path: id }
    inputs:
      - test_source: {}
output:
  drop: {}
`,
        { registry },
      ),
      /sharded_join is not supported/,
    );
  });
});
