// Spec §9 scenarios 68–73 and §7: stream files and ids, lints, collisions, manager rules, `-r`
// resources, watch mode, and the `nekton streams` command run as a process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { registry as builtins } from '../../src/components/registry.js';
import { ConfigError } from '../../src/engine/errors.js';
import { ManagerClosedError, StreamExistsError, StreamNotFoundError } from '../../src/streams/errors.js';
import { resolveStreamFiles } from '../../src/streams/files.js';
import { freePort, waitFor } from '../helpers/kit.js';
import { H, json, send, startService, tempDir } from './support.js';

const H_YAML = 'input:\n  generate:\n    mapping: root = deleted()\noutput:\n  drop: {}\n';
const REPO = join(import.meta.dirname, '..', '..');

describe('stream files (§7.3)', () => {
  it('70: ids come from file names and from paths inside directories', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'nested', 'inner'), { recursive: true });
    writeFileSync(join(dir, 'first.yaml'), H_YAML);
    writeFileSync(join(dir, 'nested', 'inner', 'second.yaml'), H_YAML);
    writeFileSync(join(dir, 'nested', 'inner', 'third.yml'), H_YAML);
    writeFileSync(join(dir, 'nested', 'inner', 'notes.txt'), 'not a stream');
    writeFileSync(join(dir, 'nested', 'inner', 'x_benthos_test.yaml'), H_YAML);
    const files = await resolveStreamFiles([join(dir, 'first.yaml'), join(dir, 'nested')]);
    assert.deepEqual(
      files.map((f) => f.id),
      ['first', 'inner_second', 'inner_third'],
    );

    const svc = await startService({ paths: [join(dir, 'first.yaml'), join(dir, 'nested')] });
    try {
      assert.deepEqual(Object.keys(json(await send(svc, 'GET', '/streams'))), [
        'first',
        'inner_second',
        'inner_third',
      ]);
      assert.deepEqual(
        (json(await send(svc, 'GET', '/streams/inner_second')) as { config: unknown }).config,
        H,
      );
    } finally {
      await svc.stop();
    }
  });

  it('globs are expanded, other extensions stay in the id', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yaml'), H_YAML);
    writeFileSync(join(dir, 'b.conf'), H_YAML);
    const files = await resolveStreamFiles([join(dir, '*')]);
    assert.deepEqual(
      files.map((f) => f.id),
      ['a', 'b.conf'],
    );
  });

  it('71: file lints name the file and line; fatal unless chilled', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'first.yaml'),
      'input:\n  generate: { mapping: "root = deleted()" }\n  meow1: nah\noutput:\n  drop: {}\n',
    );
    writeFileSync(join(dir, 'second.yaml'), `${H_YAML}cache_resources:\n  - label: foo\n    memory: {}\n`);
    const paths = [join(dir, 'first.yaml'), join(dir, 'second.yaml')];
    await assert.rejects(startService({ paths }), (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /^shutting down due to stream linter errors/);
      assert.ok(err.message.includes('/first.yaml(3,1) field meow1 '), err.message);
      assert.ok(err.message.includes('/second.yaml(6,1) field cache_resources not recognised'), err.message);
      return true;
    });
    const svc = await startService({ paths, chilled: true });
    try {
      const list = json(await send(svc, 'GET', '/streams')) as Record<string, { active: boolean }>;
      assert.deepEqual(Object.keys(list), ['first', 'second']);
      assert.equal(list.first?.active, true);
    } finally {
      await svc.stop();
    }
  });

  it('72: two files with one id fail with a collision error', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'foo.yaml'), H_YAML);
    writeFileSync(join(dir, 'b', 'foo.yaml'), H_YAML);
    await assert.rejects(
      startService({ paths: [join(dir, 'a', 'foo.yaml'), join(dir, 'b', 'foo.yaml')] }),
      (err: Error) => /stream id \(foo\) collision from file: .*b\/foo\.yaml/.test(err.message),
    );
  });

  it('a stream that cannot be built stops startup with its id', async () => {
    const dir = tempDir();
    const bad = {
      ...H,
      pipeline: { processors: [{ cache: { resource: 'nope', operator: 'get', key: 'k' } }] },
    };
    writeFileSync(join(dir, 'bad.yaml'), JSON.stringify(bad));
    await assert.rejects(startService({ paths: [join(dir, 'bad.yaml')] }), (err: Error) =>
      err.message.startsWith("failed to create stream (bad): cache resource 'nope' was not found"),
    );
  });
});

describe('manager rules (73)', () => {
  it('update of an unknown id, create of an existing id, and create after stop all fail', async () => {
    const svc = await startService();
    const { manager } = svc;
    const definition = await (async () => {
      await send(svc, 'POST', '/streams/one', JSON.stringify(H));
      const entry = manager.get('one');
      assert.ok(entry);
      return { config: entry.config, raw: entry.raw };
    })();
    await assert.rejects(manager.update('nope', definition), StreamNotFoundError);
    await assert.rejects(manager.create('one', definition), StreamExistsError);
    await svc.stop();
    await assert.rejects(
      manager.create('two', definition),
      (err: Error) => err instanceof ManagerClosedError && err.message === 'type was closed',
    );
    await assert.rejects(manager.delete('one'), ManagerClosedError);
  });
});

describe('resources from files', () => {
  it('-r files and the observability config install resources', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'res.yaml'), 'cache_resources:\n  - label: fromfile\n    memory: {}\n');
    const svc = await startService({
      resources: [join(dir, '*.yaml')],
      observabilityYaml:
        'http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\nrate_limit_resources:\n  - label: fromobs\n    local: {}\n',
    });
    try {
      const all = json(await send(svc, 'GET', '/resources')) as Record<string, Record<string, unknown>>;
      assert.deepEqual(Object.keys(all.cache ?? {}), ['fromfile']);
      assert.deepEqual(Object.keys(all.rate_limit ?? {}), ['fromobs']);
    } finally {
      await svc.stop();
    }
  });
});

describe('watch mode (§7.4)', () => {
  it('creates, updates and deletes streams as files change', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'first.yaml'), H_YAML);
    const svc = await startService({ paths: [dir], watch: true, watchDebounceMs: 100 });
    const mapping = async (id: string) => {
      const r = await send(svc, 'GET', `/streams/${id}`);
      return r.status === 200 ? (json(r) as { config: typeof H }).config.input.generate.mapping : null;
    };
    try {
      assert.equal(await mapping('first'), 'root = deleted()');
      writeFileSync(join(dir, 'second.yaml'), H_YAML);
      await waitFor(async () => (await mapping('second')) === 'root = deleted()', {
        message: 'second created',
      });
      writeFileSync(join(dir, 'first.yaml'), H_YAML.replace('root = deleted()', 'root = this.changed'));
      await waitFor(async () => (await mapping('first')) === 'root = this.changed', {
        message: 'first updated',
      });
      writeFileSync(join(dir, 'first.yaml'), `${H_YAML}nope: 1\n`);
      rmSync(join(dir, 'second.yaml'));
      await waitFor(async () => (await send(svc, 'GET', '/streams/second')).status === 404, {
        message: 'second deleted',
      });
      assert.equal(await mapping('first'), 'root = this.changed', 'a file with lints is not applied');
    } finally {
      await svc.stop();
    }
  });
});

/** Runs `nekton <args>` from the sources, polls its API, then stops it with SIGTERM. */
async function runCli(
  args: string[],
  port: number,
  whileRunning: () => Promise<void>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/ping`)).ok, {
      message: 'the CLI to listen',
      timeoutMs: 20_000,
    });
    await whileRunning();
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${String(err)}\n${output}`);
  }
  child.kill('SIGTERM');
  return { code: await exited, output };
}

describe('nekton streams (process)', () => {
  for (const legacy of [false, true]) {
    it(`${legacy ? '69: -c obs.yaml streams' : '68: streams -o obs.yaml'} runs the file's stream under its id`, async () => {
      const dir = tempDir();
      const port = await freePort();
      const out = join(dir, 'out.txt');
      writeFileSync(join(dir, 'obs.yaml'), `http:\n  address: 127.0.0.1:${port}\nlogger:\n  level: TRACE\n`);
      writeFileSync(join(dir, 'in.txt'), '{"id":"foobar"}\n');
      const input = builtins.has('input', 'generate')
        ? 'generate:\n    count: 1\n    interval: ""\n    mapping: \'root.id = "foobar"\''
        : `file:\n    paths: [ ${join(dir, 'in.txt')} ]`;
      writeFileSync(
        join(dir, 'foo.yaml'),
        `input:\n  ${input}\noutput:\n  file:\n    path: ${out}\n    codec: lines\n`,
      );
      const obs = join(dir, 'obs.yaml');
      const args = legacy
        ? ['-c', obs, 'streams', join(dir, 'foo.yaml')]
        : ['streams', '-o', obs, join(dir, 'foo.yaml')];
      const { code, output } = await runCli(args, port, async () => {
        const list = (await (await fetch(`http://127.0.0.1:${port}/streams`)).json()) as Record<
          string,
          unknown
        >;
        assert.deepEqual(Object.keys(list), ['foo']);
        await waitFor(
          () => {
            try {
              return readFileSync(out, 'utf8').includes('foobar');
            } catch {
              return false;
            }
          },
          { message: 'foobar in the output file' },
        );
      });
      assert.equal(code, 0, output);
      assert.match(output, /level=trace/);
    });
  }

  it('--max-body-size bounds API request bodies (413 above it)', async () => {
    const port = await freePort();
    const { code, output } = await runCli(
      ['streams', '--max-body-size', '1KiB', '-s', `http.address=127.0.0.1:${port}`],
      port,
      async () => {
        const config = JSON.stringify({ input: { generate: { mapping: 'root = 1' } }, output: { drop: {} } });
        const big = await fetch(`http://127.0.0.1:${port}/streams/big`, {
          method: 'POST',
          body: config + ' '.repeat(2000),
        });
        assert.equal(big.status, 413);
        assert.match(await big.text(), /limit of 1024 bytes/);
        const small = await fetch(`http://127.0.0.1:${port}/streams/small`, { method: 'POST', body: config });
        assert.equal(small.status, 200);
      },
    );
    assert.equal(code, 0, output);
  });
});
