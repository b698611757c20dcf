// The core components (caches, rate limits, outputs, generate) report at `nekton lint` the
// duration, interpolation, mapping and value mistakes that used to surface only at start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const lint = (text: string) =>
  lintServiceConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

const INPUT = 'input:\n  generate:\n    mapping: root = 1\n';
const OUTPUT = 'output:\n  drop: {}\n';

/** Exactly one lint, matching `pattern` (which pins its line). */
function assertOne(text: string, pattern: RegExp): void {
  const lints = lint(text);
  assert.equal(lints.length, 1, lints.join('\n'));
  assert.match(lints[0] ?? '', pattern);
}

describe('lint of the core components: durations at their line', () => {
  it('a cache TTL', () => {
    assertOne(
      `${INPUT}${OUTPUT}cache_resources:\n  - label: c\n    memory:\n      default_ttl: 5 minutes\n`,
      /^\(9,1\) field default_ttl: invalid duration "5 minutes"/,
    );
  });

  it('a ristretto get_retries interval', () => {
    assertOne(
      `${INPUT}${OUTPUT}cache_resources:\n  - label: c\n    ristretto:\n      get_retries:\n        enabled: true\n        max_interval: soon\n`,
      /^\(11,1\) field max_interval: invalid duration "soon"/,
    );
  });

  it('a rate limit interval', () => {
    assertOne(
      `${INPUT}${OUTPUT}rate_limit_resources:\n  - label: r\n    local:\n      interval: 1 sec\n`,
      /^\(9,1\) field interval: invalid duration "1 sec"/,
    );
  });

  it('a static cache output ttl, but not an interpolated one', () => {
    const output = (ttl: string) =>
      `${INPUT}output:\n  cache:\n    target: c\n    key: k\n    ttl: ${ttl}\ncache_resources:\n  - label: c\n    memory: {}\n`;
    assertOne(output('2 days'), /^\(8,1\) field ttl: invalid duration "2 days"/);
    assert.deepEqual(lint(output(`'\${! @ttl }'`)), []);
  });
});

describe('lint of the core components: interpolations and mappings', () => {
  it('a file output path', () => {
    const lints = lint(`${INPUT}output:\n  file:\n    path: 'out-\${! content( }.txt'\n`);
    assert.equal(lints.length, 1, lints.join('\n'));
    assert.match(lints[0] ?? '', /^\(6,/);
  });

  it('a switch case check', () => {
    const lints = lint(
      `${INPUT}output:\n  switch:\n    cases:\n      - check: 'this.a ==='\n        output:\n          drop: {}\n      - output:\n          drop: {}\n`,
    );
    assert.equal(lints.length, 1, lints.join('\n'));
    assert.match(lints[0] ?? '', /^\(7,/);
  });

  it('a generate mapping', () => {
    const lints = lint(`input:\n  generate:\n    mapping: 'root = ('\n${OUTPUT}`);
    assert.equal(lints.length, 1, lints.join('\n'));
    assert.match(lints[0] ?? '', /^\(3,/);
  });
});

describe('lint of the core components: checks moved out of constructors', () => {
  const cache = (body: string) => `${INPUT}${OUTPUT}cache_resources:\n  - label: c\n${body}`;

  it('lru and ttlru capacity', () => {
    assertOne(
      cache('    lru:\n      cap: 0\n'),
      /^\(9,1\) invalid lru cache parameter capacity: must be bigger than 0/,
    );
    assertOne(
      cache('    ttlru:\n      cap: -1\n'),
      /^\(9,1\) invalid ttlru cache parameter capacity: must be bigger than 0/,
    );
  });

  it('a ttlru TTL of zero, the deprecated ttl winning over default_ttl', () => {
    assertOne(
      cache('    ttlru:\n      default_ttl: 0s\n'),
      /^\(9,1\) invalid ttlru cache parameter default_ttl: must be bigger than 0s/,
    );
    assertOne(
      cache('    ttlru:\n      default_ttl: 1m\n      ttl: 0s\n'),
      /^\(9,1\) invalid ttlru cache parameter default_ttl: must be bigger than 0s/,
    );
  });

  it('multilevel with one level', () => {
    assertOne(cache('    multilevel: [ c ]\n'), /^\(8,1\) expected at least two cache levels, found 1/);
  });

  it('a local rate limit count of zero', () => {
    assertOne(
      `${INPUT}${OUTPUT}rate_limit_resources:\n  - label: r\n    local:\n      count: 0\n`,
      /^\(9,1\) count must be larger than zero/,
    );
  });

  it('a switch output with one case', () => {
    assertOne(
      `${INPUT}output:\n  switch:\n    cases:\n      - output:\n          drop: {}\n`,
      /^\(6,1\) attempting to create switch with fewer than 2 cases/,
    );
  });

  it('a broker output and a fallback output without outputs', () => {
    assertOne(`${INPUT}output:\n  broker:\n    outputs: []\n`, /^\(6,1\) broker needs at least one output/);
    assertOne(`${INPUT}output:\n  fallback: []\n`, /^\(5,1\) fallback needs at least one output/);
  });

  it('a broker input and a sequence input without inputs, and a sharded_join', () => {
    assertOne(`input:\n  broker:\n    inputs: []\n${OUTPUT}`, /^\(3,1\) broker needs at least one input/);
    assertOne(`input:\n  sequence:\n    inputs: []\n${OUTPUT}`, /^\(3,1\) sequence needs at least one input/);
    assertOne(
      `input:\n  sequence:\n    sharded_join: { type: full-outer, id_path: id }\n    inputs:\n      - stdin: {}\n${OUTPUT}`,
      /^\(3,1\) sequence.sharded_join is not supported by nekton yet/,
    );
  });

  it('an output codec with an empty delimiter, and one that does not exist', () => {
    assertOne(
      `${INPUT}output:\n  stdout:\n    codec: 'delim:'\n`,
      /^\(6,1\) codec delim: needs a non-empty delimiter/,
    );
    assert.ok(
      lint(`${INPUT}output:\n  file:\n    path: out.txt\n    codec: csv\n`).some((l) => /csv/.test(l)),
    );
  });

  it('a generate interval that is neither a duration nor a cron expression', () => {
    assertOne(
      `input:\n  generate:\n    mapping: root = 1\n    interval: every now and then\n${OUTPUT}`,
      /^\(3,1\) interval: failed to parse interval as duration string/,
    );
  });

  it('accepts what each component accepts', () => {
    assert.deepEqual(
      lint(
        `input:\n  generate:\n    mapping: root = 1\n    interval: '@every 1m'\noutput:\n  stdout:\n    codec: 'delim:\\t'\ncache_resources:\n  - label: c\n    ttlru:\n      cap: 10\n      default_ttl: 1m\n  - label: d\n    multilevel: [ c, c ]\n`,
      ),
      [],
    );
  });
});
