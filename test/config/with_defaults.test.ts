// withDefaults / componentWithDefaults: what `nekton echo` and `nekton create` print.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { schemaProvider } from '../../src/config/schema.js';
import { SERVICE_FIELDS } from '../../src/config/service_spec.js';
import { componentWithDefaults, withDefaults } from '../../src/config/with_defaults.js';

const provider = schemaProvider(registry);

describe('withDefaults', () => {
  it('fills defaults in spec order, keeps what was written and keys it does not know', () => {
    const out = withDefaults(
      SERVICE_FIELDS,
      { output: { drop: {} }, input: { generate: { mapping: 'root = 1' } }, custom_key: 7 },
      { provider },
    );
    const keys = Object.keys(out);
    assert.ok(keys.indexOf('http') < keys.indexOf('input'));
    assert.ok(keys.indexOf('input') < keys.indexOf('output'));
    assert.equal(keys.at(-1), 'custom_key');
    assert.equal(out.custom_key, 7);
    const generate = (out.input as { generate: Record<string, unknown> }).generate;
    assert.equal(generate.mapping, 'root = 1');
    assert.equal(generate.interval, '1s');
    assert.equal(out.tests, undefined, 'optional without a default: left out');
    assert.equal(out.parallel, undefined, 'deprecated and not written: left out');
  });

  it('drops `type`, labels only components that carry one, and completes nested processors', () => {
    const input = componentWithDefaults(
      'input',
      { type: 'stdin', processors: [{ type: 'log' }] },
      { provider, labels: true },
    ) as Record<string, unknown>;
    assert.deepEqual(Object.keys(input), ['label', 'stdin', 'processors']);
    const stdin = input.stdin as { scanner: Record<string, unknown> };
    assert.equal('label' in stdin.scanner, false, 'a scanner has no label');
    const [log] = input.processors as Record<string, { level?: string }>[];
    assert.deepEqual(Object.keys(log!), ['label', 'log']);
    assert.equal(log!.log!.level, 'INFO');
  });

  it('omit leaves out fields the value lacks; examples fill required fields without a default', () => {
    const small = componentWithDefaults(
      'output',
      { type: 'http_client' },
      {
        provider,
        omit: (spec) => spec.advanced === true,
        examples: true,
      },
    ) as { http_client: Record<string, unknown> };
    assert.equal(small.http_client.tls, undefined);
    assert.equal(small.http_client.verb, 'POST');
    const written = componentWithDefaults(
      'output',
      { http_client: { tls: { enabled: true } } },
      {
        provider,
        omit: (spec) => spec.advanced === true,
      },
    ) as { http_client: { tls: Record<string, unknown> } };
    assert.equal(written.http_client.tls.enabled, true, 'written advanced fields stay');
    const mapping = componentWithDefaults('processor', { type: 'mapping' }, { provider, examples: true });
    assert.equal(typeof (mapping as { mapping: unknown }).mapping, 'string');
    const bare = componentWithDefaults('processor', { type: 'mapping' }, { provider });
    assert.equal((bare as { mapping: unknown }).mapping, null, 'no example asked for: nothing to fill');
  });
});
