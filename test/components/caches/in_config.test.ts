// The new caches and `cached` as a config uses them: resources referring to each other (a
// multilevel cache listed before its levels), run by `nekton test`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runTests } from '../../cli/test_command/run_helpers.js';
import { tempDir } from '../../helpers/cli.js';

const CONFIG = `pipeline:
  processors:
    - cached:
        cache: leveled
        key: '\${! json("id") }'
        processors:
          - mapping: 'root = {"id": this.id, "n": this.n}'
    - cache:
        resource: seen
        operator: add
        key: '\${! content() }'
        value: x
    - mapping: 'root = if errored() { "dup" } else { content() }'
cache_resources:
  - label: leveled
    multilevel: [ hot, cold ]
  - label: hot
    ttlru:
      cap: 10
  - label: cold
    ristretto: {}
  - label: seen
    lru:
      cap: 10
      algorithm: two_queues
tests:
  - name: the second id 1 gets the cached result, which the lru add then finds
    input_batch:
      - content: '{"id":1,"n":"first"}'
      - content: '{"id":2,"n":"other"}'
      - content: '{"id":1,"n":"second"}'
    output_batches:
      - - content_equals: '{"id":1,"n":"first"}'
        - content_equals: '{"id":2,"n":"other"}'
        - content_equals: dup
`;

describe('in-process caches in a config', () => {
  it('multilevel over ttlru and ristretto serves cached results; lru add dedupes them', async () => {
    const dir = tempDir();
    const file = join(dir, 'caches.yaml');
    writeFileSync(file, CONFIG);
    const { summary, output } = await runTests([file]);
    assert.equal(summary.ok, true, output);
  });
});
