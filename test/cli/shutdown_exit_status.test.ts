// SIGTERM in normal mode: exit 0 when the in-flight messages were delivered within
// shutdown_timeout, 1 (with an error saying how many were nacked) when the stop had to nack some,
// as Benthos exits non-zero when its stream does not close cleanly in time.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startNekton, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/kit.js';

async function sink(answer: boolean): Promise<{ server: Server; port: number; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    req.resume();
    if (answer) req.on('end', () => res.end('ok'));
    // Otherwise the request hangs until nekton gives up on it.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, requests: () => requests };
}

async function sigtermAfterRequests(answer: boolean): Promise<{ code: number | null; output: string }> {
  const { server, port, requests } = await sink(answer);
  const config = join(tempDir(), 'config.yaml');
  writeFileSync(
    config,
    `http: {enabled: false}\nshutdown_timeout: 3s\ninput:\n  generate: {interval: 100ms, mapping: 'root = counter()'}\noutput:\n  http_client:\n    url: http://127.0.0.1:${port}/in\n    verb: POST\n    timeout: 60s\n    max_in_flight: 64\n`,
  );
  const child = startNekton(['-c', config]);
  try {
    await waitFor(() => requests() >= 3, { message: `requests reaching the sink (${child.output()})` });
    const exited = once(child, 'exit') as Promise<[number | null]>;
    child.kill('SIGTERM');
    const [code] = await exited;
    return { code, output: child.output() };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    server.closeAllConnections();
    server.close();
  }
}

describe('normal mode exit status after SIGTERM', () => {
  it('is 1, with an error naming how many were nacked, when the stop had to nack messages', async () => {
    const { code, output } = await sigtermAfterRequests(false);
    assert.equal(code, 1, output);
    assert.match(
      output,
      /level=error msg="\d+ transactions were still in flight \(or waiting to be replayed\) when the stream stopped/,
    );
    assert.match(output, /not delivered and were nacked to their source/);
  });

  it('is 1 when a message that kept failing was waiting for its next replay', async () => {
    const config = join(tempDir(), 'config.yaml');
    writeFileSync(
      config,
      `http: {enabled: false}\ninput:\n  generate: {count: 1, interval: "", mapping: 'root = "x"'}\noutput:\n  reject: 'refused'\n`,
    );
    const child = startNekton(['-c', config]);
    try {
      // The replays back off (1, 2, 4 ms ... up to 1 s): after a few, the message waits on a timer.
      await waitFor(() => (child.output().match(/refused/g)?.length ?? 0) >= 1, {
        message: 'a refused write',
      });
      await new Promise((r) => setTimeout(r, 1500));
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill('SIGTERM');
      const [code] = await exited;
      assert.equal(code, 1, child.output());
      assert.match(child.output(), /not delivered and were nacked to their source/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('is 0 when everything in flight was delivered', async () => {
    const { code, output } = await sigtermAfterRequests(true);
    assert.equal(code, 0, output);
    assert.doesNotMatch(output, /nacked to their source/);
  });
});
