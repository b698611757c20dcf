// Config mistakes that used to pass lint and then misbehave (issue 17): keys inside components that
// take no settings, and an http_server with no HTTP server to attach to.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig, lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const options = { provider: schemaProvider(registry) };
const stream = (text: string) => lintStreamConfig(parseYaml(text), options).map(formatApiLint);
const service = (text: string) => lintServiceConfig(parseYaml(text), options).map(formatApiLint);

describe('components that take no settings', () => {
  it('report an unknown key inside drop, noop and sync_response with its line', () => {
    const text = [
      'input:',
      '  generate:',
      '    mapping: root = 1',
      'pipeline:',
      '  processors:',
      '    - noop:',
      '        what: 1',
      '    - sync_response:',
      '        status: 201',
      'output:',
      '  drop:',
      '    nope: true',
      '',
    ].join('\n');
    assert.deepEqual(stream(text), [
      '(7,1) field what not recognised',
      '(9,1) field status not recognised',
      '(12,1) field nope not recognised',
    ]);
  });

  it('still accept them empty, beside wrapper keys', () => {
    const text =
      'input:\n  generate:\n    mapping: root = 1\n  processors:\n    - noop: {}\noutput:\n  sync_response: {}\n';
    assert.deepEqual(stream(text), []);
  });
});

describe('http_server with http.enabled: false', () => {
  const base = (component: string) => ['http:', '  enabled: false', ...component.split('\n'), ''].join('\n');

  it('is a lint error at the input when it sets no address', () => {
    const lints = service(base('input:\n  http_server:\n    path: /post\noutput:\n  drop: {}'));
    assert.equal(lints.length, 1, lints.join('\n'));
    assert.match(
      lints[0] ?? '',
      /^\(4,1\) http_server input has no server to attach to: http\.enabled is false/,
    );
  });

  it('is a lint error at an http_server output too', () => {
    const lints = service(
      base('input:\n  generate:\n    mapping: root = 1\noutput:\n  http_server:\n    path: /get'),
    );
    assert.equal(lints.length, 1, lints.join('\n'));
    assert.match(lints[0] ?? '', /^\(7,1\) http_server output has no server to attach to/);
  });

  it('is fine with an own address, or with http enabled', () => {
    assert.deepEqual(
      service(base('input:\n  http_server:\n    address: 127.0.0.1:0\n    path: /post\noutput:\n  drop: {}')),
      [],
    );
    assert.deepEqual(service('input:\n  http_server:\n    path: /post\noutput:\n  drop: {}\n'), []);
  });
});
