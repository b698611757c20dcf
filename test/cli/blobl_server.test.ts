// `nekton blobl server` with the reference's flags: --host/--port (and nekton's --address),
// --mapping-file/--input-file, --write, and the browser opened unless --no-open.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { browserCommand } from '../../src/cli/open_browser.js';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const running: ReturnType<typeof startNekton>[] = [];
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

function serve(args: string[], env: Record<string, string> = {}) {
  const child = startNekton(['blobl', 'server', ...args], env);
  running.push(child);
  return child;
}

async function stop(child: ReturnType<typeof startNekton>): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

async function page(port: number): Promise<string> {
  return waitFor(
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      return res.ok ? res.text() : '';
    },
    { timeoutMs: 15_000, message: 'the playground page' },
  );
}

async function execute(port: number, mapping: string, input: string): Promise<Record<string, unknown>> {
  const res = await fetch(`http://127.0.0.1:${port}/execute`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ mapping, input }),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe('nekton blobl server', () => {
  it('--host and --port (and -p) choose where it listens; --address still works', async () => {
    const port = await freePort();
    const child = serve(['--host', '127.0.0.1', '-p', String(port), '--no-open']);
    assert.match(await page(port), /<title>Bloblang playground/);
    assert.match(child.output(), new RegExp(`listening at http://127\\.0\\.0\\.1:${port}/`));
    assert.equal(await stop(child), 0);

    const other = await freePort();
    const legacy = serve(['--address', `127.0.0.1:${other}`, '--no-open']);
    assert.match(await page(other), /<title>Bloblang playground/);
    await stop(legacy);
  });

  it('--mapping-file and --input-file start the page with their texts', async () => {
    const dir = tempDir();
    const mappingFile = join(dir, 'start.blobl');
    const inputFile = join(dir, 'start.json');
    writeFileSync(mappingFile, 'root.seen = this.word.uppercase() # <from file>');
    writeFileSync(inputFile, '{"word":"abc"}');
    const port = await freePort();
    const child = serve([
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '-n',
      '-m',
      mappingFile,
      '-i',
      inputFile,
    ]);
    const html = await page(port);
    assert.match(
      html,
      /<textarea id="mapping"[^>]*>root\.seen = this\.word\.uppercase\(\) # &lt;from file&gt;<\/textarea>/,
    );
    assert.match(html, /<textarea id="input"[^>]*>\{"word":"abc"\}<\/textarea>/);
    assert.match(html, /data-from-files="true"/);
    // Without --write the files are never touched.
    await execute(port, 'root = "edited"', '{}');
    await stop(child);
    assert.equal(readFileSync(mappingFile, 'utf8'), 'root.seen = this.word.uppercase() # <from file>');
  });

  it('a missing --mapping-file is an error without --write', async () => {
    const dir = tempDir();
    const child = serve(['--no-open', '--port', String(await freePort()), '-m', join(dir, 'absent.blobl')]);
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 1);
    assert.match(child.output(), /failed to read playground file: .*absent\.blobl/);
  });

  it("--write / -w: the page's mapping and input are written back (files created if missing)", async () => {
    const dir = tempDir();
    const mappingFile = join(dir, 'new.blobl');
    const inputFile = join(dir, 'new.json');
    const port = await freePort();
    const child = serve([
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--no-open',
      '-w',
      '-m',
      mappingFile,
      '-i',
      inputFile,
    ]);
    await page(port);
    assert.equal(existsSync(mappingFile), false);
    const reply = await execute(port, 'root.n = this.n + 1', '{"n":41}');
    assert.equal(reply.result, '{"n":42}');
    const written = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    // The mapping file is written first, then the input file: wait for both.
    await waitFor(() => written(mappingFile) === 'root.n = this.n + 1' && written(inputFile) === '{"n":41}', {
      timeoutMs: 10_000,
      message: 'the mapping and input files',
    });
    // The last edit before a stop is written too.
    await execute(port, 'root = "last"', '{}');
    await stop(child);
    assert.equal(readFileSync(mappingFile, 'utf8'), 'root = "last"');
    assert.equal(readFileSync(inputFile, 'utf8'), '{}');
  });

  it('opens the page in a browser unless --no-open, and never without a display', async () => {
    const dir = tempDir();
    const opened = join(dir, 'opened.txt');
    // A stand-in xdg-open that records the URL it was asked to open.
    const fake = join(dir, 'xdg-open');
    writeFileSync(fake, `#!/bin/sh\necho "$1" >> ${JSON.stringify(opened)}\n`);
    chmodSync(fake, 0o755);
    const env = { PATH: `${dir}:${process.env.PATH}`, DISPLAY: ':99' };

    const port = await freePort();
    const child = serve(['--host', '127.0.0.1', '--port', String(port)], env);
    await page(port);
    await waitFor(() => existsSync(opened), { timeoutMs: 10_000, message: 'xdg-open to be run' });
    assert.equal(readFileSync(opened, 'utf8'), `http://127.0.0.1:${port}/\n`);
    await stop(child);

    const quiet = await freePort();
    const noOpen = serve(['--host', '127.0.0.1', '--port', String(quiet), '--no-open'], env);
    await page(quiet);
    await stop(noOpen);
    assert.equal(readFileSync(opened, 'utf8').split('\n').length, 2, 'not opened again');

    assert.equal(browserCommand('http://x/', 'linux', {}), undefined);
    assert.deepEqual(browserCommand('http://x/', 'linux', { WAYLAND_DISPLAY: 'wayland-0' }), [
      'xdg-open',
      ['http://x/'],
    ]);
    assert.deepEqual(browserCommand('http://x/', 'darwin', {}), ['open', ['http://x/']]);
  });
});
