// Normal mode driven from outside, as a user runs it: `bin/nekton -c config.yaml`.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NEKTON_BIN, runNekton, startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

function linesFile(dir: string, count: number): { path: string; text: string } {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) lines.push(`line ${i} ${'~'.repeat(i % 37)} ünïcödé`);
  const text = `${lines.join('\n')}\n`;
  const path = join(dir, 'in.txt');
  writeFileSync(path, text);
  return { path, text };
}

describe('normal mode', () => {
  it('copies 100k lines file -> processors -> file byte-identically and exits 0', async () => {
    const dir = tempDir();
    const { path, text } = linesFile(dir, 100_000);
    const out = join(dir, 'out.txt');
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  enabled: false\ninput:\n  file:\n    paths: [ ${path} ]\npipeline:\n  threads: 2\n  processors:\n    - noop: {}\noutput:\n  file:\n    path: ${out}\n    codec: lines\n`,
    );
    const result = await runNekton(['-c', config], { timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(out, 'utf8'), text);
  });

  it('delivers every line through an http_client output whose server fails every third request', async () => {
    const dir = tempDir();
    const { path } = linesFile(dir, 300);
    const received: string[] = [];
    let requests = 0;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        requests++;
        if (requests % 3 === 0) {
          res.statusCode = 500;
          res.end('try again');
          return;
        }
        received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  enabled: false\ninput:\n  file:\n    paths: [ ${path} ]\noutput:\n  http_client:\n    url: http://127.0.0.1:${port}/in\n    verb: POST\n    retries: 0\n    max_in_flight: 4\n`,
    );
    try {
      const result = await runNekton(['-c', config], { timeoutMs: 60_000 });
      assert.equal(result.code, 0, result.stderr);
    } finally {
      server.close();
    }
    const expected = readFileSync(path, 'utf8').trimEnd().split('\n');
    const got = new Set(received.flatMap((b) => b.split('\n')).filter(Boolean));
    for (const line of expected) assert.ok(got.has(line), `missing ${line}`);
    assert.ok(requests > received.length, 'the server never failed a request');
  });

  it('serves /ping, /ready and moving /metrics counters while running', async () => {
    const dir = tempDir();
    const apiPort = await freePort();
    const inPort = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  address: 127.0.0.1:${apiPort}\ninput:\n  label: ingest\n  http_server:\n    address: 127.0.0.1:${inPort}\n    path: /post\noutput:\n  drop: {}\n`,
    );
    const child = startNekton(['-c', config]);
    try {
      const base = `http://127.0.0.1:${apiPort}`;
      await waitFor(async () => (await fetch(`${base}/ping`)).ok, { message: `/ping (${child.output()})` });
      await waitFor(async () => (await fetch(`${base}/ready`)).status === 200, { message: '/ready 200' });
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://127.0.0.1:${inPort}/post`, { method: 'POST', body: `hello ${i}` });
        assert.equal(res.status, 200);
      }
      const metrics = await (await fetch(`${base}/metrics`)).text();
      assert.match(metrics, /input_received\{[^}]*label="ingest"[^}]*\} 3/);
      assert.match(metrics, /output_sent\{[^}]*path="root.output"[^}]*\} 3/);
      const nested = await fetch(`${base}/nekton/ping`);
      assert.equal(await nested.text(), 'pong');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    assert.equal(child.exitCode ?? 0, 0, child.output());
  });

  it('/ready is 503 naming the output while it cannot connect, and 200 once its server appears', async () => {
    const dir = tempDir();
    const apiPort = await freePort();
    const redisPort = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `http:\n  address: 127.0.0.1:${apiPort}\ninput:\n  generate:\n    mapping: root = "x"\n    interval: 100ms\noutput:\n  label: sink\n  redis_list:\n    url: redis://127.0.0.1:${redisPort}\n    key: ready-test\n`,
    );
    const child = startNekton(['-c', config]);
    let redis: ChildProcess | undefined;
    try {
      const base = `http://127.0.0.1:${apiPort}`;
      await waitFor(async () => (await fetch(`${base}/ping`)).ok, { message: `/ping (${child.output()})` });
      // The first dial may still be under way when /ping answers: wait for its failure to show.
      let text = '';
      await waitFor(
        async () => {
          const down = await fetch(`${base}/ready`);
          assert.equal(down.status, 503);
          text = await down.text();
          return text.includes(`127.0.0.1:${redisPort}`);
        },
        { message: '/ready naming the address' },
      );
      assert.match(text, new RegExp(`not connected: output \\(.*127\\.0\\.0\\.1:${redisPort}`));
      // A private Redis on the port the output dials: the output's reconnect finds it.
      redis = spawn(
        'redis-server',
        ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await waitFor(async () => (await fetch(`${base}/ready`)).status === 200, {
        message: '/ready 200',
        timeoutMs: 20_000,
      });
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      redis?.kill('SIGKILL');
    }
  });

  it('refuses a config with lint errors, naming file, line and field, unless --chilled', async () => {
    const dir = tempDir();
    const config = join(dir, 'bad.yaml');
    writeFileSync(config, `http:\n  enabled: false\ninput:\n  stdin: {}\n  nope: 1\noutput:\n  drop: {}\n`);
    const strict = await runNekton(['-c', config]);
    assert.equal(strict.code, 1);
    assert.match(
      strict.stderr,
      /bad\.yaml\(5,1\) field nope is invalid when the component type is stdin \(input\)/,
    );
    assert.doesNotMatch(strict.stderr, /\n\s+at /, 'printed a stack trace');
    const chilled = await runNekton(['-c', config, '--chilled'], { input: 'a\nb\n' });
    assert.equal(chilled.code, 0, chilled.stderr);
  });

  it('reports a missing file and invalid YAML in one line with exit code 1', async () => {
    const missing = await runNekton(['-c', '/nonexistent/nekton.yaml']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /nonexistent\/nekton\.yaml/);
    const dir = tempDir();
    const config = join(dir, 'broken.yaml');
    writeFileSync(config, 'input:\n  stdin: {\n  oops\n');
    const broken = await runNekton(['-c', config]);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /broken\.yaml/);
    assert.doesNotMatch(broken.stderr, /\n\s+at /);
  });

  it('interpolates environment variables and applies --set overrides', async () => {
    const dir = tempDir();
    const out = join(dir, 'out.txt');
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config text itself holds an env reference
      'http:\n  enabled: false\ninput:\n  stdin: {}\noutput:\n  file:\n    path: ${OUT_FILE:/dev/null}\n',
    );
    const viaEnv = await runNekton(['-c', config], { env: { OUT_FILE: out }, input: 'one\ntwo\n' });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    assert.equal(readFileSync(out, 'utf8'), 'one\ntwo\n');
    const other = join(dir, 'other.txt');
    const viaSet = await runNekton(['-c', config, '--set', `output.file.path=${other}`], {
      input: 'three\n',
    });
    assert.equal(viaSet.code, 0, viaSet.stderr);
    assert.equal(readFileSync(other, 'utf8'), 'three\n');
  });

  it('pipes 100k lines from stdin through a mapping to stdout in order, each once', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      'http:\n  enabled: false\ninput:\n  stdin: {}\npipeline:\n  processors:\n    - mapping: root = content().string() + "!"\noutput:\n  stdout: {}\n',
    );
    const lines = Array.from({ length: 100_000 }, (_, i) => `line-${i}`);
    const result = await runNekton(['-c', config], { input: `${lines.join('\n')}\n`, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${lines.map((l) => `${l}!`).join('\n')}\n`);
  });

  // `nekton ... | head`: when the reader of stdout goes away, nekton stops at once with status 141,
  // as Benthos dies of SIGPIPE, instead of retrying writes that cannot succeed (it never exited).
  it('stops with status 141 when the reader of stdout closes the pipe', { timeout: 30_000 }, async () => {
    const dir = tempDir();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      'http:\n  enabled: false\ninput:\n  generate:\n    count: 0\n    interval: ""\n    mapping: \'root = {"n": counter()}\'\noutput:\n  stdout: {}\n',
    );
    const child = spawn(process.execPath, [NEKTON_BIN, '-c', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    let seen = '';
    child.stdout.on('data', (d) => {
      seen += d;
      // Like `head -3`: read three lines, then close the pipe.
      if (seen.split('\n').length > 3) child.stdout.destroy();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 141, stderr);
    assert.match(stderr, /stdout was closed by its reader/);
    assert.match(seen, /^\{"n":1\}\n\{"n":2\}\n\{"n":3\}\n/);
  });

  it('runs a broker of 12 outputs without Node warning of an abort-listener leak', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.yaml');
    const members = '      - drop: {}\n'.repeat(12);
    writeFileSync(
      config,
      `http:\n  enabled: false\ninput:\n  generate:\n    count: 20\n    interval: ""\n    mapping: 'root = "x"'\noutput:\n  broker:\n    pattern: fan_out\n    outputs:\n${members}`,
    );
    const result = await runNekton(['-c', config], { timeoutMs: 30_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /MaxListenersExceededWarning/);
  });

  it('lint command prints FILE(line,col) message per problem and exits 1', async () => {
    const dir = tempDir();
    const good = join(dir, 'good.yaml');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(good, 'input:\n  stdin: {}\noutput:\n  drop: {}\n');
    writeFileSync(bad, 'input:\n  stdin: {}\noutput:\n  drop: {}\n  wat: true\nnot_a_section: 1\n');
    const ok = await runNekton(['lint', good]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    const result = await runNekton(['lint', good, bad]);
    assert.equal(result.code, 1);
    const lines = (result.stdout + result.stderr).trim().split('\n');
    assert.ok(
      lines.includes(`${bad}(5,1) field wat is invalid when the component type is drop (output)`),
      lines.join('\n'),
    );
    assert.ok(lines.includes(`${bad}(6,1) field not_a_section not recognised`), lines.join('\n'));
  });

  it('lint command reports YAML syntax errors and wrongly typed values in the same form', async () => {
    const dir = tempDir();
    const syntax = join(dir, 'syntax.yaml');
    const types = join(dir, 'types.json');
    writeFileSync(syntax, 'http: {enabled: false}\ninput:\n\tstdin: {}\n');
    writeFileSync(
      types,
      '{\n  "input": {"generate": {"mapping": "root = 1", "count": "3"}},\n  "pipeline": {"threads": "2"}\n}\n',
    );
    const result = await runNekton(['lint', syntax, types]);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      `${syntax}(3,1) Tabs are not allowed as indentation`,
      `${types}(2,58) field count: expected int value, got string`,
      `${types}(3,27) field threads: expected int value, got string`,
    ]);
  });

  it('lists components and prints its version', async () => {
    const list = await runNekton(['list', 'inputs']);
    assert.equal(list.code, 0);
    assert.match(list.stdout, /- file\n/);
    assert.doesNotMatch(list.stdout, /outputs:/);
    const version = await runNekton(['--version']);
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });
});
