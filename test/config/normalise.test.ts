import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readStreamBody } from '../../src/config/api_body.js';
import { normaliseComponent } from '../../src/config/normalise.js';
import { schemaProvider } from '../../src/config/schema.js';
import { toServiceConfig, toStreamConfig } from '../../src/config/service_config.js';
import { ConfigError } from '../../src/engine/errors.js';
import { Registry } from '../../src/engine/registry.js';
import { testSpecs } from '../fixtures/config/specs.js';
import { lintOptions, provider } from './helpers.js';

const at = { docPath: [], configPath: 'root.output' };

describe('component normalisation', () => {
  it('fills defaults recursively and keeps the raw form', () => {
    const raw = { label: 'out', retry: { output: { drop: {} }, backoff: { max_interval: '10s' } } };
    const config = normaliseComponent('output', raw, at, { provider });
    assert.equal(config.type, 'retry');
    assert.equal(config.label, 'out');
    assert.deepEqual(config.raw, raw);
    const settings = config.config as {
      max_retries: number;
      backoff: Record<string, string>;
      output: { type: string; path: string };
    };
    assert.equal(settings.max_retries, 0);
    assert.deepEqual(settings.backoff, {
      initial_interval: '500ms',
      max_interval: '10s',
      max_elapsed_time: '0s',
    });
    assert.equal(settings.output.type, 'drop');
    assert.equal(settings.output.path, 'root.output.retry.output');
  });

  it('gives nested components their config paths', () => {
    const config = normaliseComponent('output', { broker: { outputs: [{ drop: {} }, { stdout: {} }] } }, at, {
      provider,
    });
    const outputs = (config.config as { outputs: { type: string; path: string }[] }).outputs;
    assert.deepEqual(
      outputs.map((o) => [o.type, o.path]),
      [
        ['drop', 'root.output.broker.outputs.0'],
        ['stdout', 'root.output.broker.outputs.1'],
      ],
    );
    const batching = (config.config as { batching: Record<string, unknown> }).batching;
    assert.deepEqual(batching, { count: 0, byte_size: 0, period: '', check: '', processors: [] });
  });

  it('builds explicit-type components from defaults and normalises default components (scanner)', () => {
    const generate = normaliseComponent(
      'input',
      { type: 'stdin' },
      { docPath: [], configPath: 'root.input' },
      { provider },
    );
    const scanner = (generate.config as { scanner: { type: string; path: string } }).scanner;
    assert.equal(scanner.type, 'lines');
    assert.equal(scanner.path, 'root.input.stdin.scanner');
  });

  it('normalises root-value components and the processors of inputs', () => {
    const input = normaliseComponent(
      'input',
      {
        inproc: 'pipe',
        processors: [{ switch: [{ check: 'this.a', processors: [{ bloblang: 'root = 1' }] }] }],
      },
      { docPath: [], configPath: 'root.input' },
      { provider },
    );
    assert.equal(input.config, 'pipe');
    const sw = input.processors[0]!;
    assert.equal(sw.path, 'root.input.processors.0');
    const cases = sw.config as {
      check: string;
      processors: { config: unknown; path: string }[];
      fallthrough: boolean;
    }[];
    assert.equal(cases[0]!.fallthrough, false);
    assert.equal(cases[0]!.processors[0]!.config, 'root = 1');
    assert.equal(cases[0]!.processors[0]!.path, 'root.input.processors.0.switch.0.processors.0');
  });

  it('raises a ConfigError with the line for a value of the wrong type or a missing required field', () => {
    const result = () =>
      readStreamBody('input:\n  generate:\n    mapping: root = 1\n    count: lots\n', {
        ...lintOptions,
        chilled: true,
      });
    assert.throws(result, (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.line, 4);
      assert.match(err.message, /field count: expected int value, got string/);
      return true;
    });
    assert.throws(
      () => readStreamBody('input:\n  generate:\n    interval: 1s\n', { ...lintOptions, chilled: true }),
      /line 3: field mapping is required/,
    );
  });

  it('decodes null like Go: zero values for scalars, defaults for objects', () => {
    const config = normaliseComponent(
      'input',
      { generate: { mapping: 'x', interval: null, count: null } },
      at,
      { provider },
    );
    assert.deepEqual(config.config, {
      mapping: 'x',
      interval: '',
      count: 0,
      batch_size: 1,
      auto_replay_nacks: true,
    });
  });
});

describe('stream and service configs', () => {
  it('defaults omitted stream sections to stdin, none, no processors, stdout', () => {
    const config = toStreamConfig({}, { provider });
    assert.deepEqual(
      [
        config.input.type,
        config.buffer.type,
        config.pipeline.processors,
        config.pipeline.threads,
        config.output.type,
      ],
      ['stdin', 'none', [], -1, 'stdout'],
    );
    assert.equal(config.input.path, 'root.input');
  });

  it('refuses a default whose component is not registered', () => {
    const bare = schemaProvider(new Registry(testSpecs.filter((s) => s.name !== 'stdin')));
    assert.throws(
      () => toStreamConfig({ output: { drop: {} } }, { provider: bare }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.message, 'input is not configured and the default input stdin is not available');
        return true;
      },
    );
  });

  it('builds a typed service config with nekton defaults and labelled resources', () => {
    const config = toServiceConfig(
      {
        input: { generate: { mapping: 'root = 1' } },
        output: { drop: {} },
        cache_resources: [{ label: 'c', memory: { default_ttl: '1m' } }],
        logger: { level: 'DEBUG' },
      },
      { provider },
    );
    assert.equal(config.http.root_path, '/nekton');
    assert.equal(config.http.address, '0.0.0.0:4195');
    assert.equal(config.http.basic_auth.realm, 'restricted');
    assert.equal(config.logger.level, 'DEBUG');
    assert.equal(config.logger.format, 'logfmt');
    assert.deepEqual(config.logger.static_fields, { '@service': 'nekton' });
    assert.equal(config.metrics.type, 'prometheus');
    assert.equal(config.tracer.type, 'none');
    assert.equal(config.shutdown_timeout, '20s');
    assert.equal(config.shutdown_delay, '0s');
    assert.equal(config.cache_resources[0]!.label, 'c');
    assert.equal((config.cache_resources[0]!.config as { shards: number }).shards, 1);
    assert.equal(config.stream?.input.type, 'generate');
  });

  it('leaves the stream out of a streams-mode observability config and requires resource labels', () => {
    const config = toServiceConfig({}, { provider }, { withStreamSections: false });
    assert.equal(config.stream, undefined);
    assert.throws(
      () => toServiceConfig({ cache_resources: [{ memory: {} }] }, { provider }),
      /a resource must have a label/,
    );
  });
});
