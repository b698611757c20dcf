// A value the run cannot use: one line naming the file, line, field path and value, exit 1, no
// stack trace. Lint now reports bad durations of typed fields too, so the runs are --chilled (lint
// findings only warn) to reach the value's use at start, the guard of configs that skip lint.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runNekton, tempDir } from '../helpers/cli.js';

const RUN_ONCE = 'input:\n  generate: {count: 1, interval: "", mapping: "root = 1"}\n';

const CASES: Array<{ name: string; config: string; error: string }> = [
  {
    name: 'shutdown_timeout',
    config: `http: {enabled: false}\n${RUN_ONCE}output: {drop: {}}\nshutdown_timeout: bogus\n`,
    error: '(5,19) shutdown_timeout: time: invalid duration "bogus"',
  },
  {
    name: 'a broker batching period',
    config: `http: {enabled: false}\n${RUN_ONCE}output:\n  broker:\n    outputs: [{drop: {}}]\n    batching:\n      count: 2\n      period: bogus\n`,
    error: '(9,15) output.broker.batching.period: time: invalid duration "bogus"',
  },
  {
    name: 'an http_client timeout nested in a retry output',
    config: `http: {enabled: false}\n${RUN_ONCE}output:\n  retry:\n    output:\n      http_client:\n        url: http://127.0.0.1:9/x\n        timeout: bogus\n`,
    error: '(9,18) output.retry.output.http_client.timeout: time: invalid duration "bogus"',
  },
  {
    name: 'an http_server input timeout',
    config:
      'http: {enabled: false}\ninput:\n  http_server:\n    address: 127.0.0.1:0\n    timeout: nope\noutput: {drop: {}}\n',
    error: '(5,14) input.http_server.timeout: time: invalid duration "nope"',
  },
  {
    name: 'a local rate limit interval',
    config: `http: {enabled: false}\n${RUN_ONCE}output: {drop: {}}\nrate_limit_resources:\n  - label: r\n    local:\n      interval: 1x\n`,
    error: '(8,17) rate_limit_resources.0.local.interval: time: unknown unit "x" in duration "1x"',
  },
  {
    name: 'a memory cache default_ttl',
    config: `http: {enabled: false}\n${RUN_ONCE}output: {drop: {}}\ncache_resources:\n  - label: c\n    memory:\n      default_ttl: bogus\n`,
    error: '(8,20) cache_resources.0.memory.default_ttl: time: invalid duration "bogus"',
  },
  {
    name: 'http.read_timeout',
    config: `http:\n  enabled: false\n  read_timeout: nope\n${RUN_ONCE}output: {drop: {}}\n`,
    error: '(3,17) http.read_timeout: time: invalid duration "nope"',
  },
];

describe('bad field values found at run time', () => {
  for (const { name, config, error } of CASES) {
    it(`reports ${name} in one line with its file, line and path`, async () => {
      const dir = tempDir();
      const path = join(dir, 'config.yaml');
      writeFileSync(path, config);
      const result = await runNekton(['--chilled', '-c', path], { timeoutMs: 15_000 });
      assert.equal(result.code, 1, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.at(-1), `${path}${error}`, result.stderr);
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'printed a stack trace');
    });
  }

  it('reports a bad shutdown_timeout of a streams-mode observability file in one line', async () => {
    const dir = tempDir();
    const observability = join(dir, 'obs.yaml');
    writeFileSync(observability, 'http: {enabled: false}\nshutdown_timeout: bogus\n');
    const result = await runNekton(['streams', '-o', observability], { timeoutMs: 15_000 });
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      result.stderr.trim(),
      `${observability}(2,19) shutdown_timeout: time: invalid duration "bogus"`,
    );
  });
});
