// The reference's `extract_tracing_map` / `inject_tracing_map` (Kafka, NATS): nekton carries traces
// in `traceparent` metadata instead, so lint refuses a mapping it would otherwise ignore.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (yaml: string) =>
  lintStreamConfig(parseYaml(yaml), { provider, bloblang: bloblangChecker }).map(formatApiLint);

describe('lint of tracing maps', () => {
  it('refuses a non-empty extract_tracing_map on an input, at its line', () => {
    const yaml =
      'input:\n  nats:\n    urls: [nats://127.0.0.1:4222]\n    subject: x\n    extract_tracing_map: root = @\noutput:\n  drop: {}\n';
    assert.deepEqual(lint(yaml), ['(5,1) field extract_tracing_map: is not supported by nekton: remove it']);
  });

  it('refuses inject_tracing_map on an output and accepts an empty one', () => {
    const out = (map: string) =>
      `input:\n  generate:\n    mapping: root = 1\noutput:\n  kafka:\n    addresses: [127.0.0.1:9092]\n    topic: t\n    inject_tracing_map: '${map}'\n`;
    assert.deepEqual(lint(out('meta = @')), [
      '(8,1) field inject_tracing_map: is not supported by nekton: remove it',
    ]);
    assert.deepEqual(lint(out('')), []);
  });
});
