// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalisedComponentYaml } from '../../src/config/normalised_yaml.js';
import { schemaProvider } from '../../src/config/schema.js';
import { SCRUBBED, scrubComponent, scrubStreamConfig } from '../../src/config/scrub.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { Registry } from '../../src/engine/registry.js';
import { testSpecs } from '../fixtures/config/specs.js';
import { provider } from './helpers.js';

const secretive: ComponentSpec = {
  name: 'vault',
  kind: 'cache',
  status: 'stable',
  summary: '',
  fields: [
    { name: 'url', type: 'string', kind: 'scalar', description: '', default: '' },
    { name: 'password', type: 'string', kind: 'scalar', description: '', default: '', secret: true },
    { name: 'tokens', type: 'string', kind: 'array', description: '', default: [], secret: true },
  ],
  build: () => {
    throw new Error('not built');
  },
};
const withSecrets = schemaProvider(new Registry([...testSpecs, secretive]));

describe('normalised component YAML (spec §6.5)', () => {
  it('writes an empty component after an empty label', () => {
    assert.equal(normalisedComponentYaml('output', parseYaml('drop: {}'), provider), 'label: ""\ndrop: {}\n');
  });

  it('orders supplied fields by schema and keeps scalar styles', () => {
    const body = 'generate:\n  interval: 100ms\n  mapping: \'root.source = "foo"\'';
    assert.equal(
      normalisedComponentYaml('input', parseYaml(body), provider),
      'label: ""\ngenerate:\n    mapping: \'root.source = "foo"\'\n    interval: 100ms\n',
    );
  });

  it('drops type keys and unknown fields, keeps the label and non-empty processors', () => {
    const body =
      'type: generate\nlabel: in\ngenerate:\n  mapping: root = 1\n  bogus: 1\nprocessors:\n  - split: {}\n';
    assert.equal(
      normalisedComponentYaml('input', parseYaml(body), provider),
      'label: in\ngenerate:\n    mapping: root = 1\nprocessors:\n    - split: {}\n',
    );
  });

  it('serialises plain values too and scrubs secrets', () => {
    const text = normalisedComponentYaml('cache', { vault: { password: 'hunter2', url: 'x' } }, withSecrets);
    assert.equal(text, `label: ""\nvault:\n    url: x\n    password: '${SCRUBBED}'\n`);
  });
});

describe('secret scrubbing', () => {
  it('scrubs secret values but keeps empty values and env references', () => {
    const scrubbed = scrubComponent(
      'cache',
      { label: 'v', vault: { password: 'hunter2', url: 'http://x', tokens: ['a', ''] } },
      withSecrets,
    );
    assert.deepEqual(scrubbed, {
      label: 'v',
      vault: { password: SCRUBBED, url: 'http://x', tokens: [SCRUBBED, ''] },
    });
    assert.deepEqual(scrubComponent('cache', { vault: { password: '${VAULT_PASSWORD}' } }, withSecrets), {
      vault: { password: '${VAULT_PASSWORD}' },
    });
  });

  it('walks stream configs into nested components', () => {
    const raw = { output: { retry: { output: { label: 'x', type: 'drop' } } }, x_note: 'kept' };
    assert.deepEqual(scrubStreamConfig(raw, withSecrets), raw);
  });
});
