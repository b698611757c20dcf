import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MetricsRegistry } from '../../src/metrics/index.js';
import { createMetricsRegistry } from '../../src/metrics/index.js';
import { send, startServer } from '../http/support.js';

async function exposition(registry: MetricsRegistry): Promise<string> {
  const server = await startServer({ metricsHandler: registry.handler });
  try {
    return (await send(server, '/metrics')).body;
  } finally {
    await server.close();
  }
}

describe('metrics.mapping', () => {
  it('renames, adds and removes labels, and drops metrics (prometheus)', async () => {
    const registry = createMetricsRegistry({
      type: 'prometheus',
      processMetrics: false,
      mapping: [
        'root = if this == "dropped_metric" { deleted() } else { "nekton_" + this }',
        'meta env = "test"',
        'meta label = deleted()',
      ].join('\n'),
    });
    const scope = registry.scope({ label: 'in', path: 'root.input' });
    scope.counter('input_received').inc(3);
    scope.counter('dropped_metric').inc(); // counting into a dropped series must not throw
    const text = await exposition(registry);
    assert.match(text, /^nekton_input_received\{env="test",path="root.input"\} 3$/m);
    assert.doesNotMatch(text, /^input_received/m);
    assert.doesNotMatch(text, /dropped_metric/);
  });

  it('leaves a metric unchanged when the mapping does not assign root', async () => {
    const registry = createMetricsRegistry({
      type: 'json_api',
      mapping: 'meta path = @path.replace_all("root.", "")',
    });
    registry.scope({ label: '', path: 'root.output' }).counter('output_sent').inc(2);
    const server = await startServer({ metricsHandler: registry.handler });
    try {
      assert.deepEqual(JSON.parse((await send(server, '/stats')).body), {
        'output_sent{label="",path="output"}': 2,
      });
    } finally {
      await server.close();
    }
  });

  it('applies to the stream stats too, keyed by the mapped name', () => {
    const registry = createMetricsRegistry({ type: 'none', mapping: 'root = this.uppercase()' });
    registry.scope({ label: '', path: 'root.input', stream: 's' }).counter('input_received').inc();
    assert.deepEqual(registry.streamStats('s'), {
      'INPUT_RECEIVED{label="",path="root.input",stream="s"}': 1,
    });
  });
});
