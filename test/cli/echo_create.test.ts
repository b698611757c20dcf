// `nekton echo` (the config as it will run: defaults filled, env and --set applied, secrets
// scrubbed) and `nekton create` (a new config from `inputs/processors/outputs`, linting clean).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { runNekton, tempDir } from '../helpers/cli.js';

async function lintsClean(yaml: string): Promise<void> {
  const file = join(tempDir(), 'created.yaml');
  writeFileSync(file, yaml);
  const lint = await runNekton(['lint', file]);
  assert.equal(lint.stdout + lint.stderr, '', 'the created config lints clean');
  assert.equal(lint.code, 0);
}

describe('nekton echo', () => {
  const config = `input:
  generate:
    mapping: 'root = "\${GREETING:hello}"'
    count: 1
output:
  http_client:
    url: http://user:pw@localhost:1234/post
    basic_auth:
      enabled: true
      password: \${ECHO_SECRET}
`;

  it('prints the config with defaults filled, env resolved, --set applied and secrets scrubbed', async () => {
    const file = join(tempDir(), 'c.yaml');
    writeFileSync(file, config);
    const result = await runNekton(['echo', file, '-s', 'output.http_client.verb=PUT'], {
      env: { ECHO_SECRET: 'hunter2-secret' },
    });
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
    assert.doesNotMatch(result.stdout, /hunter2-secret|user:pw/);
    const echoed = parse(result.stdout);
    assert.equal(echoed.input.generate.mapping, 'root = "hello"');
    assert.equal(echoed.input.generate.interval, '1s', 'a default filled in');
    assert.equal(echoed.output.http_client.verb, 'PUT');
    assert.equal(echoed.output.http_client.basic_auth.password, '!!!SECRET_SCRUBBED!!!');
    assert.equal(echoed.output.http_client.url, 'http://user:!!!SECRET_SCRUBBED!!!@localhost:1234/post');
    assert.deepEqual(echoed.buffer, { none: {} });
    assert.equal(echoed.http.address, '0.0.0.0:4195');
    assert.equal(echoed.shutdown_timeout, '20s');
    // -c before the subcommand names the config too, as in the reference.
    const viaFlag = await runNekton(['-c', file, 'echo'], { env: { ECHO_SECRET: 'x' } });
    assert.equal(parse(viaFlag.stdout).input.generate.count, 1);
  });

  it('reports a file it cannot read, and a missing argument', async () => {
    const missing = await runNekton(['echo', join(tempDir(), 'nope.yaml')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /configuration file read error: .*nope\.yaml: file not found/);
    const none = await runNekton(['echo']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no config given/);
  });
});

describe('nekton create', () => {
  it('create stdin/mapping,log/stdout: each component with its defaults, linting clean', async () => {
    const result = await runNekton(['create', 'stdin/mapping,log/stdout']);
    assert.equal(result.stderr, '');
    const created = parse(result.stdout);
    assert.equal(created.input.label, '');
    assert.equal(created.input.stdin.auto_replay_nacks, true);
    assert.equal(created.pipeline.processors.length, 2);
    assert.equal(typeof created.pipeline.processors[0].mapping, 'string');
    assert.equal(created.pipeline.processors[1].log.level, 'INFO');
    assert.equal(created.output.stdout.codec, 'lines');
    assert.equal(created.http.address, '0.0.0.0:4195', 'the full config has the service sections');
    assert.equal(created.logger.level, 'INFO');
    await lintsClean(result.stdout);
  });

  it('--small / -s: only the stream sections, without advanced fields', async () => {
    const result = await runNekton(['create', '--small', 'generate/bloblang/http_client']);
    const created = parse(result.stdout);
    assert.deepEqual(Object.keys(created), ['input', 'buffer', 'pipeline', 'output']);
    assert.equal(created.output.http_client.url !== undefined, true);
    assert.equal(created.output.http_client.tls, undefined, 'tls is an advanced field');
    assert.equal(created.output.http_client.retries, undefined, 'retries is an advanced field');
    await lintsClean(result.stdout);
    const full = parse((await runNekton(['create', 'generate/bloblang/http_client'])).stdout);
    assert.equal(full.output.http_client.retries, 3);
    const short = await runNekton(['create', '-s']);
    assert.deepEqual(parse(short.stdout).input, {
      label: '',
      stdin: { scanner: { lines: { max_buffer_size: 65536, omit_empty: false } }, auto_replay_nacks: true },
    });
  });

  it('several inputs or outputs go under a broker; no expression gives stdin to stdout', async () => {
    const result = await runNekton(['create', 'generate,http_server//stdout,drop']);
    const created = parse(result.stdout);
    assert.deepEqual(Object.keys(created.input.broker.inputs[0]), ['label', 'generate']);
    assert.deepEqual(Object.keys(created.input.broker.inputs[1]), ['label', 'http_server']);
    assert.deepEqual(created.pipeline.processors, []);
    assert.equal(created.output.broker.outputs.length, 2);
    await lintsClean(result.stdout);
    const plain = parse((await runNekton(['create'])).stdout);
    assert.ok(plain.input.stdin && plain.output.stdout);
  });

  it('refuses unknown components and a fourth list', async () => {
    const unknown = await runNekton(['create', 'stdin/no_such_processor/stdout']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /generate error: unrecognised processor type 'no_such_processor'/);
    const extra = await runNekton(['create', 'a/b/c/d']);
    assert.equal(extra.code, 1);
    assert.match(extra.stderr, /more component separators than expected/);
  });
});
