// Every component's documented examples must lint clean and build, so docs never show a config
// that does not run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { toServiceConfig } from '../../src/config/service_config.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../../src/config/yaml_document.js';
import { Stream } from '../../src/engine/stream.js';
import { HttpServer } from '../../src/http/server.js';
import { buildResources } from '../../src/service/build_resources.js';
import { createTestEnv } from '../helpers/context.js';

const provider = schemaProvider(registry);

describe('component examples', () => {
  const specs = registry.list();

  it('every component has at least one example', () => {
    const without = specs.filter((s) => (s.examples ?? []).length === 0).map((s) => `${s.kind}/${s.name}`);
    assert.deepEqual(without, []);
  });

  for (const spec of specs) {
    for (const [i, example] of (spec.examples ?? []).entries()) {
      it(`${spec.kind} ${spec.name} example ${i + 1} lints and builds: ${example.title}`, async () => {
        const parsed = parseYaml(example.config, `${spec.name}-example.yaml`);
        const lints = lintServiceConfig(parsed, { provider });
        assert.deepEqual(
          lints.map((l) => `(${l.line},${l.column}) ${l.message}`),
          [],
        );
        const config = toServiceConfig(yamlToValue(parsed), { provider, lines: buildLineIndex(parsed) });
        if (!config.stream) return;
        const http = new HttpServer({ config: { enabled: false } });
        const { builder, env, resources, abort } = createTestEnv({
          endpoints: http,
          redpanda: config.redpanda,
        });
        await buildResources(config, builder, resources);
        const stream = await Stream.build(config.stream, builder, env.logger, abort);
        await stream.stop(0);
        await resources.closeAll();
      });
    }
  }
});
