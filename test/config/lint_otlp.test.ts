// Lint of the OTLP components: an absent optional schema_registry is fine (its url is required only
// when it is given), and what nekton cannot run is refused.
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

describe('otlp lint', () => {
  it('accepts the inputs without schema_registry', () => {
    assert.deepEqual(lint('input:\n  otlp_http: {}\noutput:\n  drop: {}\n'), []);
    assert.deepEqual(lint('input:\n  otlp_grpc:\n    encoding: protobuf\noutput:\n  drop: {}\n'), []);
  });

  it('requires schema_registry.url when schema_registry is given, and refuses it as unsupported', () => {
    assert.deepEqual(lint('input:\n  otlp_http:\n    schema_registry: {}\noutput:\n  drop: {}\n'), [
      '(3,1) field url is required',
    ]);
    assert.deepEqual(
      lint('input:\n  otlp_grpc:\n    schema_registry:\n      url: http://x\noutput:\n  drop: {}\n'),
      [
        '(3,1) schema_registry is not supported: nekton emits OTLP JSON or protobuf, not the redpanda.otel.v1 schema',
      ],
    );
  });

  it("requires the outputs' endpoint and refuses what they cannot do", () => {
    assert.deepEqual(lint('input:\n  otlp_http: {}\noutput:\n  otlp_grpc: {}\n'), [
      '(4,1) field endpoint is required',
    ]);
    assert.deepEqual(
      lint(
        'input:\n  otlp_http: {}\noutput:\n  otlp_http:\n    endpoint: http://x\n    proxy_url: http://p\n',
      ),
      ['(5,1) proxy_url is not supported by nekton'],
    );
  });
});
