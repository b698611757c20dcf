import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { OBSERVABILITY_COMPONENTS } from '../../src/config/observability_components.js';
import {
  DESCRIPTION_KEYS,
  describe as describeField,
  descriptionKeyOf,
  REFERENCE,
} from '../../src/config/reference_fields.js';
import { applyOverrides } from '../../src/config/service_overrides.js';
import { SERVICE_FIELDS } from '../../src/config/service_spec.js';
import type { FieldSpec } from '../../src/config/spec.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { lintOptions } from './helpers.js';

/** Every field with its path (`metrics.statsd.tag_format`, `http.cors.enabled`). */
function allFields(fields: readonly FieldSpec[], prefix = ''): [string, FieldSpec][] {
  return fields.flatMap((f) => [
    [prefix + f.name, f] as [string, FieldSpec],
    ...allFields(f.children ?? [], `${prefix}${f.name}.`),
  ]);
}

const everyField = [
  ...OBSERVABILITY_COMPONENTS.flatMap((c) => allFields(c.fields, `${c.kind}.${c.name}.`)),
  ...allFields(SERVICE_FIELDS),
];

function at(path: string): FieldSpec {
  const found = everyField.find(([p]) => p === path);
  assert.ok(found, `no field ${path}`);
  return found[1];
}

describe('service and observability specs from the reference data', () => {
  it('holds exactly what the extraction script makes of the reference copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nekton-extract-'));
    try {
      const out = join(dir, 'observability.json');
      execFileSync(process.execPath, [
        'scripts/extract-reference-fields.mjs',
        'test/fixtures/reference/components.json',
        out,
      ]);
      const committed = readFileSync('src/config/reference/observability.json', 'utf8');
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), JSON.parse(committed));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('describes every field', () => {
    assert.ok(everyField.length > 250);
    const undescribed = everyField.filter(([, f]) => f.description.trim() === '').map(([p]) => p);
    assert.deepEqual(undescribed, []);
  });

  it('has no description for a field that does not exist', () => {
    const used = new Set(everyField.map(([path]) => descriptionKeyOf(path)));
    assert.deepEqual(
      DESCRIPTION_KEYS.filter((k) => !used.has(k)),
      [],
    );
  });

  it('keeps the reference facts: defaults, options, flags', () => {
    assert.deepEqual(
      OBSERVABILITY_COMPONENTS.map((c) => `${c.kind}/${c.name}`),
      [
        'metrics/aws_cloudwatch',
        'metrics/influxdb',
        'metrics/json_api',
        'metrics/logger',
        'metrics/none',
        'metrics/open_telemetry_collector',
        'metrics/prometheus',
        'metrics/statsd',
        'tracer/gcp_cloudtrace',
        'tracer/jaeger',
        'tracer/none',
        'tracer/open_telemetry_collector',
        'tracer/redpanda',
      ],
    );
    assert.deepEqual(at('metrics.statsd.tag_format').options, ['none', 'datadog', 'influxdb']);
    assert.equal(at('metrics.statsd.tag_format').default, 'none');
    assert.equal(at('metrics.prometheus.push_job_name').default, 'benthos_push');
    assert.equal(at('metrics.prometheus.push_basic_auth.password').secret, true);
    assert.equal(at('tracer.redpanda.tls.client_certs.key').secret, true);
    assert.equal(at('tracer.redpanda.tls.client_certs.key').advanced, true);
    assert.equal(at('tracer.open_telemetry_collector.grpc.url').deprecated, true);
    assert.equal(at('metrics.aws_cloudwatch.region').optional, true);
    assert.equal(at('metrics.aws_cloudwatch.region').default, undefined);
    assert.equal(at('tracer.redpanda.seed_brokers').kind, 'array');
    assert.equal(at('tests.output_batches.bloblang').bloblang, true);
    assert.deepEqual(at('logger.level').options, [
      'OFF',
      'FATAL',
      'ERROR',
      'WARN',
      'INFO',
      'DEBUG',
      'TRACE',
      'ALL',
      'NONE',
    ]);
    assert.equal(at('parallel').deprecated, true);
  });

  it("applies nekton's overrides", () => {
    assert.equal(at('http.root_path').default, '/nekton');
    assert.deepEqual(at('logger.static_fields').default, { '@service': 'nekton' });
    assert.deepEqual(at('input').default, { stdin: {} });
    assert.deepEqual(at('output').default, { stdout: {} });
    assert.deepEqual(at('metrics').default, { prometheus: {} });
    assert.deepEqual(
      at('http').children?.map((f) => f.name),
      [
        'enabled',
        'address',
        'root_path',
        'debug_endpoints',
        'cert_file',
        'key_file',
        'read_header_timeout',
        'read_timeout',
        'max_body_size',
        'cors',
        'basic_auth',
      ],
    );
    assert.equal(at('http.max_body_size').default, 4194304);
    assert.equal(at('tests.output_batches.json_schema').optional, true);
    assert.equal(at('redpanda.logs_level').default, 'info');
    assert.equal(at('redpanda.timeout').check, 'duration');
    // The reference data itself is left as extracted.
    assert.equal(REFERENCE.service.find((f) => f.name === 'http')?.children?.[2]?.default, '/benthos');
  });

  it('refuses an override whose field is not in the reference data', () => {
    assert.throws(
      () => applyOverrides(REFERENCE.service, [{ path: 'http.no_such_field', remove: true }]),
      /no field http\.no_such_field/,
    );
  });

  it('looks a description up by exact path before a shared suffix', () => {
    assert.equal(descriptionKeyOf('metrics.influxdb.tls.enabled'), '*.tls.enabled');
    assert.equal(descriptionKeyOf('http.basic_auth.enabled'), 'http.basic_auth.enabled');
    assert.equal(describeField('no.such.path'), '');
  });

  it('lints service configs by these specs', () => {
    const lint = (text: string) =>
      lintServiceConfig(parseYaml(text), { ...lintOptions, withStreamSections: false }).map(formatApiLint);
    assert.deepEqual(lint('http:\n  max_body_size: 1024\nmetrics:\n  statsd:\n    address: x:1\n'), []);
    assert.deepEqual(lint('redpanda:\n  seed_brokers: [ a:9092 ]\n'), []);
    assert.deepEqual(lint('redpanda:\n  logs_level: loud\n'), [
      '(2,1) value loud is not a valid option for this field',
    ]);
    assert.deepEqual(lint('metrics:\n  statsd:\n    address: x:1\n    tag_format: nope\n'), [
      '(4,1) value nope is not a valid option for this field',
    ]);
  });
});
