// `nekton test` as the reference runs config unit tests: targets found from paths, processors
// picked by pointer, label or other file, mocks swapped in, environments applied, and every
// failure reported with its case, input, condition and diff.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers/cli.js';
import { runTests } from './run_helpers.js';

function files(tree: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const UPPER_PIPELINE = `pipeline:
  processors:
    - mapping: 'root = "<" + content().string()'
    - label: shout
      mapping: 'root = content().uppercase()'
    - mapping: 'root = content().string() + ">"'
`;

function verdicts(output: string): string[] {
  return output.split('\n').filter((l) => l.startsWith('Test '));
}

describe('nekton test: targets and processors', () => {
  it('runs a tests: section in the config itself and says which targets succeeded', async () => {
    const dir = files({
      'a.yaml': `${UPPER_PIPELINE}
tests:
  - name: wraps and shouts
    input_batch:
      - content: hi
    output_batches:
      - - content_equals: <HI>
`,
    });
    const { summary, output } = await runTests([join(dir, 'a.yaml')]);
    assert.equal(summary.ok, true);
    assert.deepEqual(verdicts(output), [`Test '${join(dir, 'a.yaml')}' succeeded`]);
  });

  it('targets a JSON pointer to one processor, a resource label, a resource list and another file', async () => {
    const dir = files({
      'main.yaml': `${UPPER_PIPELINE}
processor_resources:
  - label: prefix
    mapping: 'root = "p:" + content().string()'
  - label: suffix
    mapping: 'root = content().string() + ":s"'
`,
      'main_benthos_test.yaml': `tests:
  - name: one processor by pointer
    target_processors: /pipeline/processors/1
    input_batch: [{ content: abc }]
    output_batches: [[{ content_equals: ABC }]]
  - name: a resource by label
    target_processors: suffix
    input_batch: [{ content: abc }]
    output_batches: [[{ content_equals: 'abc:s' }]]
  - name: a labelled processor of the pipeline
    target_processors: shout
    input_batch: [{ content: abc }]
    output_batches: [[{ content_equals: ABC }]]
  - name: every resource in order
    target_processors: /processor_resources
    input_batch: [{ content: abc }]
    output_batches: [[{ content_equals: 'p:abc:s' }]]
`,
      'sub/other_test.yaml': `tests:
  - name: processors of another file
    target_processors: ../main.yaml#/pipeline/processors
    input_batch: [{ content: x }]
    output_batches: [[{ content_equals: <X> }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'main.yaml'), join(dir, 'sub', 'other_test.yaml')]);
    assert.equal(summary.ok, true, output);
    assert.equal(summary.targets.length, 2);
    assert.deepEqual(
      summary.targets.map((t) => t.cases.length),
      [4, 1],
    );
  });

  it('runs a .blobl file as the target_mapping', async () => {
    const dir = files({
      'names.blobl': 'root.names = this.people.map_each(p -> p.name).join(",")\n',
      'names_test.yaml': `tests:
  - name: joins names
    target_mapping: ./names.blobl
    input_batch:
      - json_content: { people: [{ name: a }, { name: b }] }
    output_batches:
      - - json_equals: { names: "a,b" }
  - name: a failed mapping flags the message
    target_mapping: ./names.blobl
    input_batch: [{ content: '{}' }]
    output_batches:
      - - bloblang: errored()
`,
    });
    const { summary, output } = await runTests([join(dir, 'names_test.yaml')]);
    assert.equal(summary.ok, true, output);
  });

  it('finds definitions under dir/... and in a plain directory, pairing *_benthos_test and *_bento_test files', async () => {
    const pipeline = "pipeline:\n  processors:\n    - mapping: 'root = content().uppercase()'\n";
    const definition =
      'tests:\n  - name: up\n    input_batch: [{ content: a }]\n    output_batches: [[{ content_equals: A }]]\n';
    const dir = files({
      'top.yaml': pipeline,
      'top_benthos_test.yaml': definition,
      'deep/nested/inner.yaml': pipeline,
      'deep/nested/inner_bento_test.yaml': definition,
      'deep/untested.yaml': pipeline,
      'deep/notes.txt': 'tests: nope',
    });
    const walked = await runTests([`${dir}/...`]);
    assert.equal(walked.summary.ok, true, walked.output);
    assert.deepEqual(
      walked.summary.targets.map((t) => t.target.configPath),
      [join(dir, 'deep/nested/inner.yaml'), join(dir, 'top.yaml')],
    );
    const plain = await runTests([dir]);
    assert.deepEqual(
      plain.summary.targets.map((t) => t.target.configPath),
      [join(dir, 'top.yaml')],
    );
    const byDefinition = await runTests([join(dir, 'deep/nested/inner_bento_test.yaml')]);
    assert.deepEqual(
      byDefinition.summary.targets.map((t) => t.target.configPath),
      [join(dir, 'deep/nested/inner.yaml')],
    );
  });

  it('says no tests were found, and fails, when the paths hold none', async () => {
    const dir = files({ 'plain.yaml': 'pipeline:\n  processors: []\n' });
    const { summary, output } = await runTests([`${dir}/...`]);
    assert.equal(summary.ok, false);
    assert.equal(output, 'No tests were found\n');
  });
});

describe('nekton test: mocks and environments', () => {
  it("replaces processors by label and by pointer, keeps a mocked resource's label, and appends with /-", async () => {
    const dir = files({
      'svc.yaml': `pipeline:
  processors:
    - mapping: 'root = "simon says: " + content()'
    - label: get_api
      sleep: { duration: 1h }
    - resource: remote
    - mapping: 'root = content().uppercase()'
processor_resources:
  - label: remote
    sleep: { duration: 1h }
tests:
  - name: mock by label (the resource mock keeps its label, so resource still finds it)
    mocks:
      get_api:
        mapping: 'root = content().string() + " mocked"'
      remote:
        noop: {}
    input_batch: [{ content: hi }]
    output_batches: [[{ content_equals: 'SIMON SAYS: HI MOCKED' }]]
  - name: mock by pointer and add a processor at the end
    mocks:
      remote: { noop: {} }
      /pipeline/processors/1:
        mapping: 'root = throw("api failed")'
      /pipeline/processors/3:
        mapping: 'root = content().string()'
      /pipeline/processors/-:
        mapping: |
          root.content = content().string()
          root.error = error()
    input_batch: [{ content: hi }]
    output_batches:
      - - json_equals: { content: "simon says: hi", error: "failed assignment (line 1): api failed" }
`,
    });
    const { summary, output } = await runTests([join(dir, 'svc.yaml')]);
    assert.equal(summary.ok, true, output);
  });

  it('fails a case whose target points at nothing, naming the pointer', async () => {
    const dir = files({
      'svc.yaml': `${UPPER_PIPELINE}
tests:
  - name: bad pointer
    target_processors: /pipeline/procesors
    input_batch: [{ content: hi }]
`,
    });
    const { summary, output } = await runTests([join(dir, 'svc.yaml')]);
    assert.equal(summary.ok, false);
    assert.match(
      output,
      /failed to initialise processors '\/pipeline\/procesors': failed to resolve case processors from '.*svc.yaml': nothing at \/pipeline\/procesors/,
    );
  });

  it('fails a case whose mock names a label the config does not have', async () => {
    const dir = files({
      'svc.yaml': `${UPPER_PIPELINE}
tests:
  - name: bad mock
    mocks:
      nope: { mapping: 'root = 1' }
    input_batch: [{ content: hi }]
`,
    });
    const { summary, output } = await runTests([join(dir, 'svc.yaml')]);
    assert.equal(summary.ok, false);
    assert.match(output, /mock for label 'nope' could not be applied as the label was not found/);
  });

  it('applies a case environment to config variables and env(), and puts the process environment back', async () => {
    const dir = files({
      'env.yaml': `pipeline:
  processors:
    - mapping: |
        root.interpolated = "\${NEKTON_UT_A:default}"
        root.function = env("NEKTON_UT_B")
tests:
  - name: with values
    environment: { NEKTON_UT_A: set_a, NEKTON_UT_B: set_b }
    input_batch: [{ content: '{}' }]
    output_batches: [[{ json_equals: { interpolated: set_a, function: set_b } }]]
  - name: without values
    input_batch: [{ content: '{}' }]
    output_batches: [[{ json_equals: { interpolated: default, function: null } }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'env.yaml')]);
    assert.equal(summary.ok, true, output);
    assert.equal(process.env.NEKTON_UT_A, undefined);
    assert.equal(process.env.NEKTON_UT_B, undefined);
  });

  it('builds resources afresh for every case (a dedupe cache does not carry over)', async () => {
    const dir = files({
      'dedupe.yaml': `pipeline:
  processors:
    - dedupe: { cache: seen, key: '\${! content() }' }
cache_resources:
  - label: seen
    memory: {}
tests:
  - name: first
    input_batches: [[{ content: a }, { content: a }], [{ content: a }, { content: b }]]
    output_batches: [[{ content_equals: a }], [{ content_equals: b }]]
  - name: second sees an empty cache
    input_batch: [{ content: a }]
    output_batches: [[{ content_equals: a }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'dedupe.yaml')]);
    assert.equal(summary.ok, true, output);
  });
});

describe('nekton test: resources and nekton conditions', () => {
  it("builds resources from -r files beside the config's", async () => {
    const dir = files({
      'shared.yaml': `processor_resources:
  - label: shared_upper
    mapping: 'root = content().uppercase()'
`,
      'uses.yaml': `pipeline:
  processors:
    - resource: shared_upper
tests:
  - name: uses a resource from another file
    input_batch: [{ content: a }]
    output_batches: [[{ content_equals: A }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'uses.yaml')], {
      resourceFiles: [join(dir, 'shared.yaml')],
    });
    assert.equal(summary.ok, true, output);
  });

  it("accepts a json_schema condition in a config's tests without a lint", async () => {
    const dir = files({
      's.yaml': `pipeline:
  processors:
    - mapping: 'root.id = content().string()'
tests:
  - name: schema
    input_batch: [{ content: a }]
    output_batches:
      - - json_schema: { type: object, required: [id], properties: { id: { type: string } } }
`,
    });
    const { summary, output } = await runTests([join(dir, 's.yaml')]);
    assert.equal(summary.ok, true, output);
  });
});

describe('nekton test: failures', () => {
  it('prints the case, its line, its input, the failed condition with a diff, and fails', async () => {
    const dir = files({
      'f.yaml': `pipeline:
  processors:
    - mapping: 'root = this.merge({"seen": true})'
tests:
  - name: passes
    input_batch: [{ content: '{"a":1}' }]
    output_batches: [[{ json_equals: { a: 1, seen: true } }]]
  - name: wrong value
    input_batch:
      - content: '{"a":1}'
        metadata: { topic: t1 }
    output_batches: [[{ json_equals: { a: 2, seen: true } }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'f.yaml')]);
    assert.equal(summary.ok, false);
    const expected = [
      `Test '${join(dir, 'f.yaml')}' failed`,
      '',
      'Failures:',
      '',
      `--- ${join(dir, 'f.yaml')} ---`,
      '',
      'wrong value [line 8]:',
      'input batch 0 message 0: "{\\"a\\":1}" metadata {"topic":"t1"}',
      'batch 0 message 0: json_equals: JSON content mismatch',
      '--- expected',
      '+++ received',
      '  {',
      '-   "a": 2,',
      '+   "a": 1,',
      '    "seen": true',
      '  }',
      '',
    ].join('\n');
    assert.equal(output, expected);
  });

  it('reports batch and message count mismatches and unexpected output', async () => {
    const dir = files({
      'c.yaml': `pipeline:
  processors:
    - mapping: 'root = if content() == "drop" { deleted() }'
tests:
  - name: too few batches
    input_batch: [{ content: drop }]
    output_batches: [[{ content_equals: x }]]
  - name: too many messages
    input_batch: [{ content: a }, { content: b }]
    output_batches: [[{ content_equals: a }]]
  - name: an unexpected batch
    input_batches: [[{ content: a }], [{ content: b }]]
    output_batches: [[{ content_equals: a }]]
`,
    });
    const { output } = await runTests([join(dir, 'c.yaml')]);
    assert.match(output, /too few batches \[line 5\]:\n.*\nwrong batch count, expected 1, got 0/);
    assert.match(
      output,
      /mismatch of output batch 0 message counts, expected 1, got 2\nunexpected message from batch 0: b/,
    );
    assert.match(output, /unexpected batch: \["b"\]/);
  });

  it('fails a target whose config does not lint, even when its cases pass', async () => {
    const dir = files({
      'l.yaml': `pipeline:
  processors:
    - mapping: 'root = content()'
not_a_field: 1
tests:
  - name: passes
    input_batch: [{ content: a }]
    output_batches: [[{ content_equals: a }]]
`,
    });
    const { summary, output } = await runTests([join(dir, 'l.yaml')]);
    assert.equal(summary.ok, false);
    assert.match(output, /Lint: \(4,1\) field not_a_field not recognised/);
    assert.deepEqual(summary.targets[0]?.cases[0]?.failures, []);
  });

  it('fails a case needing a component nekton lacks, naming it, and goes on to the next target', async () => {
    const dir = files({
      'a_missing.yaml': `pipeline:
  processors:
    - awk: { program: '{}' }
tests:
  - name: needs awk
    input_batch: [{ content: a }]
`,
      'b_fine.yaml': `pipeline:
  processors:
    - mapping: 'root = content()'
tests:
  - name: fine
    input_batch: [{ content: a }]
    output_batches: [[{ content_equals: a }]]
`,
    });
    const { summary, output } = await runTests([`${dir}/...`]);
    assert.equal(summary.ok, false);
    assert.deepEqual(verdicts(output), [
      `Test '${join(dir, 'a_missing.yaml')}' failed`,
      `Test '${join(dir, 'b_fine.yaml')}' succeeded`,
    ]);
    assert.match(
      output,
      /needs awk \[line 5\]:\n.*\nfailed to initialise processors '\/pipeline\/processors': .*awk/,
    );
  });

  it('names the file and line of a value found bad while building the case', async () => {
    const dir = files({
      'd.yaml': `pipeline:
  processors:
    - sleep:
        duration: bogus
tests:
  - name: bad duration
    input_batch: [{ content: a }]
`,
    });
    const { output } = await runTests([join(dir, 'd.yaml')]);
    assert.match(
      output,
      /d\.yaml\(4,19\) pipeline\.processors\.0\.sleep\.duration: time: invalid duration "bogus"/,
    );
  });

  it('reads a block scalar at the very end of a definition without a final newline as Go does', async () => {
    const dir = files({
      'eof.yaml': `pipeline:
  processors:
    - mapping: 'root = content()'
tests:
  - name: no trailing newline
    input_batch: [{ content: '{"a":1}' }]
    output_batches:
      - - content_equals: |
            {"a":1}`,
    });
    const { summary, output } = await runTests([join(dir, 'eof.yaml')]);
    assert.equal(summary.ok, true, output);
  });

  it('reports a definition that cannot be read as that target failing', async () => {
    const dir = files({
      'bad.yaml': `pipeline:
  processors: []
tests:
  - name: typo
    input_batchez: []
`,
    });
    const { summary, output } = await runTests([join(dir, 'bad.yaml')]);
    assert.equal(summary.ok, false);
    assert.match(
      output,
      /Error: failed to parse test definition from '.*bad.yaml': tests.0: field input_batchez not recognised/,
    );
  });
});
