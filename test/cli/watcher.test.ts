// Normal mode's `-w/--watcher`: a changed config replaces the running stream; a bad one is logged
// and the old stream keeps running; a changed `-r` resource file counts too.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { freePort, waitFor } from '../helpers/kit.js';

const running: ReturnType<typeof startNekton>[] = [];
after(() => {
  for (const child of running) child.kill('SIGKILL');
});

const config = (word: string, processors = '[]') => `http: {enabled: false}
input:
  generate: {interval: 50ms, mapping: 'root = "${word}"'}
pipeline:
  processors: ${processors}
output:
  stdout: {}
`;

/** Writes through a temporary file and a rename, as editors save. */
function save(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

function linesAfter(child: ReturnType<typeof startNekton>, mark: number): string[] {
  return child.output().slice(mark).split('\n');
}

async function stop(child: ReturnType<typeof startNekton>): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

describe('nekton -w (normal mode)', () => {
  it('replaces the stream when the config changes, and keeps it when the new file is bad', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.yaml');
    writeFileSync(file, config('first'));
    // A file the stream does not use changes in the same directory: no reload.
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const child = startNekton(['-w', '-c', file]);
    running.push(child);
    await waitFor(() => child.output().includes('first'), { timeoutMs: 15_000, message: 'the first stream' });
    writeFileSync(join(dir, 'notes.txt'), 'y');

    save(file, config('second'));
    await waitFor(() => child.output().includes('second'), {
      timeoutMs: 15_000,
      message: 'the changed mapping',
    });
    assert.match(child.output(), /config changed: replacing the stream/);
    assert.equal(child.output().match(/config changed/g)?.length, 1, 'notes.txt caused no reload');

    // A file that does not lint: logged, and `second` keeps coming.
    save(file, config('third').replace('mapping:', 'mappin:'));
    await waitFor(() => /config reload failed.*field mappin not recognised/s.test(child.output()), {
      timeoutMs: 15_000,
      message: 'the lint error',
    });
    const mark = child.output().length;
    await waitFor(() => linesAfter(child, mark).filter((l) => l === 'second').length >= 3, {
      timeoutMs: 15_000,
      message: 'the old stream still running',
    });
    assert.ok(!child.output().includes('third'));

    // Fixed again: the new one runs.
    save(file, config('fourth'));
    await waitFor(() => child.output().includes('fourth'), {
      timeoutMs: 15_000,
      message: 'the fixed config',
    });
    assert.equal(await stop(child), 0);
  });

  it('reloads when a -r resource file changes, and keeps running after the input ends', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.yaml');
    const resources = join(dir, 'res.yaml');
    writeFileSync(
      file,
      `http: {enabled: false}\ninput:\n  generate: {count: 1, interval: "", mapping: 'root = "msg"'}\npipeline:\n  processors: [{resource: shout}]\noutput:\n  stdout: {}\n`,
    );
    writeFileSync(
      resources,
      `processor_resources:\n  - label: shout\n    mapping: 'root = content().string() + "-one"'\n`,
    );
    const child = startNekton(['--watcher', '-c', file, '-r', resources]);
    running.push(child);
    await waitFor(() => child.output().includes('msg-one'), {
      timeoutMs: 15_000,
      message: 'the first output',
    });
    // count: 1 has finished; watching, the process waits for a change instead of exiting.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(child.exitCode, null);

    save(
      resources,
      `processor_resources:\n  - label: shout\n    mapping: 'root = content().string() + "-two"'\n`,
    );
    await waitFor(() => child.output().includes('msg-two'), {
      timeoutMs: 15_000,
      message: 'the changed resource',
    });
    assert.equal(await stop(child), 0);
  });

  it("takes a replaced stream's HTTP endpoints away with it", async () => {
    const dir = tempDir();
    const port = await freePort();
    const file = join(dir, 'config.yaml');
    const withPath = (path: string) =>
      `http: {address: "127.0.0.1:${port}"}\ninput:\n  http_server: {path: ${path}}\noutput:\n  drop: {}\n`;
    writeFileSync(file, withPath('/first'));
    const child = startNekton(['-w', '-c', file]);
    running.push(child);
    const post = async (path: string) =>
      (await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: 'x' })).status;
    await waitFor(async () => (await post('/first')) === 200, {
      timeoutMs: 15_000,
      message: '/first to answer',
    });
    save(file, withPath('/second'));
    await waitFor(async () => (await post('/second')) === 200, {
      timeoutMs: 15_000,
      message: '/second to answer',
    });
    assert.equal(await post('/first'), 404);
    assert.equal(await stop(child), 0);
  });

  // The root's -w is the same flag as `streams -w`: either place turns on streams-mode watching.
  for (const args of [
    ['streams', '-w'],
    ['-w', 'streams'],
  ]) {
    it(`\`nekton ${args.join(' ')}\` still watches stream files`, async () => {
      const dir = tempDir();
      const port = await freePort();
      const streams = join(dir, 'streams');
      mkdirSync(streams);
      const child = startNekton([...args, '-s', `http.address=127.0.0.1:${port}`, streams]);
      running.push(child);
      const list = async () =>
        Object.keys((await (await fetch(`http://127.0.0.1:${port}/streams`)).json()) as object);
      await waitFor(async () => (await list()).length === 0, {
        timeoutMs: 15_000,
        message: 'the streams API',
      });
      // The API answers a moment before streams mode starts watching: write again every 2 s (more
      // than its 1 s quiet period) until it notices.
      let polls = 0;
      await waitFor(
        async () => {
          if ((await list()).includes('added')) return true;
          if (polls++ % 40 === 0)
            writeFileSync(
              join(streams, 'added.yaml'),
              `input:\n  generate: {mapping: 'root = ${polls}'}\noutput:\n  drop: {}\n`,
            );
          return false;
        },
        { timeoutMs: 15_000, message: 'the new stream file to be picked up' },
      );
      await stop(child);
    });
  }
});
