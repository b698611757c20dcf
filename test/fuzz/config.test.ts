// Seeded fuzzing of the config loader: random and mutated files never crash it with anything but a
// ConfigError, never hang, and every error or lint names where in the file it is.
// Replay with FUZZ_SEED=<seed>; raise the volume with FUZZ_CONFIGS.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { loadConfigFile, loadStreamFile } from '../../src/config/loader.js';
import { schemaProvider } from '../../src/config/schema.js';
import { ConfigError } from '../../src/engine/errors.js';
import {
  countFromEnv,
  deepJson,
  int,
  mutate,
  pick,
  prng,
  randomBytes,
  tokenSoup,
  yamlAliasBomb,
} from './support.js';

const SEED = Number(process.env.FUZZ_SEED ?? 424242);
const COUNT = countFromEnv('FUZZ_CONFIGS', 1500);
const provider = schemaProvider(registry);

const VALID = [
  `http:
  address: 127.0.0.1:4195
input:
  generate:
    count: 3
    interval: 10ms
    mapping: 'root = {"id": counter(), "at": now()}'
pipeline:
  threads: 2
  processors:
    - mapping: |
        root = this
        root.upper = this.id.string().uppercase()
    - switch:
        - check: this.id % 2 == 0
          processors:
            - mapping: 'root.even = true'
output:
  broker:
    pattern: fan_out
    outputs:
      - drop: {}
      - file:
          path: /tmp/x-\${! counter() }.txt
          codec: lines
logger:
  level: INFO
`,
  `input:
  http_server:
    path: /post
    timeout: 5s
buffer:
  memory:
    limit: 1000
output:
  http_client:
    url: http://localhost:9/x
    basic_auth:
      enabled: true
      username: u
      password: p
cache_resources:
  - label: c
    memory:
      default_ttl: 5m
`,
];

/** A position: a ConfigError's line, `line N`, `(L,C)`, or a file path followed by one. */
function namesPosition(text: string, err?: ConfigError): boolean {
  if (err?.line !== undefined) return true;
  return /line \d+|\(\d+,\d+\)|char \d+|levels/.test(text);
}

describe('config loader fuzz (seeded)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nekton-fuzz-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`loads ${COUNT} random and mutated files: only ConfigErrors, each naming a position`, async () => {
    const random = prng(SEED);
    const outcomes = { loaded: 0, linted: 0, rejected: 0 };
    for (let i = 0; i < COUNT; i++) {
      const kind = int(random, 10);
      let text: string | Buffer;
      if (kind < 5) text = mutate(random, pick(random, VALID), 1 + int(random, 8));
      else if (kind === 5) text = tokenSoup(random, int(random, 300));
      else if (kind === 6) text = randomBytes(random, int(random, 1024));
      else if (kind === 7) text = deepJson(50 + int(random, 5000), random() < 0.5 ? 'array' : 'object');
      else if (kind === 8)
        text = `input:\n  generate:\n    mapping: ${JSON.stringify(yamlAliasBomb(3))}\n${yamlAliasBomb(5 + int(random, 5))}`;
      else
        text = `${'  '.repeat(int(random, 400))}a:\n${'  '.repeat(int(random, 400))}- ${tokenSoup(random, 10)}`;
      const path = join(dir, `c${i}.yaml`);
      writeFileSync(path, text);
      const load = random() < 0.5 ? loadConfigFile : loadStreamFile;
      const started = Date.now();
      try {
        const loaded = await load(path, { provider, env: {} });
        if (loaded.lints.length > 0) outcomes.linted++;
        else outcomes.loaded++;
        for (const lint of loaded.lints) assert.ok(namesPosition(lint), `lint without a position: ${lint}`);
      } catch (err) {
        outcomes.rejected++;
        const shown = typeof text === 'string' ? text.slice(0, 200) : text.toString('hex', 0, 60);
        assert.ok(
          err instanceof ConfigError,
          `case ${i} (seed ${SEED}) threw ${String(err)} for ${JSON.stringify(shown)}`,
        );
        assert.ok(namesPosition(err.message, err), `case ${i}: error without a position: ${err.message}`);
      }
      // A bound on a single file, not a performance measurement.
      assert.ok(Date.now() - started < 5_000, `case ${i} took over 5 s`);
    }
    if (process.env.SOAK_REPORT) console.log('config fuzz outcomes', outcomes);
    assert.ok(outcomes.rejected > 0 && outcomes.linted + outcomes.loaded > 0, JSON.stringify(outcomes));
  });
});
