// Slow clients on the service-wide HTTP server: `http.read_header_timeout` / `http.read_timeout`
// come from the config file (nekton's own fields, linted like the others) and a slow-loris
// connection is cut once the header limit passes while other clients are still served.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { loadConfigFile } from '../../src/config/loader.js';
import { ConfigError } from '../../src/engine/errors.js';
import { HttpServer } from '../../src/http/server.js';
import { lintOptions } from '../config/helpers.js';
import { tempDir } from '../helpers/cli.js';
import { send } from './support.js';

async function loadHttp(yaml: string) {
  const path = join(tempDir(), 'config.yaml');
  writeFileSync(path, yaml);
  return loadConfigFile(path, { ...lintOptions, withStreamSections: false });
}

/** Header bytes the slow client would need 200 ms each for: 12 s in all, far past the limit. */
const SLOW_HEADERS = `GET /ping HTTP/1.1\r\nHost: x\r\nX-Slow: ${'z'.repeat(20)}\r\n\r\n`;

/**
 * Sends SLOW_HEADERS one byte per 200 ms; resolves with how many bytes went out before the server
 * closed the connection and what it answered. `whileSending` runs after the first few bytes.
 */
function slowLoris(port: number, whileSending: () => Promise<void>) {
  return new Promise<{ sent: number; reply: string }>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    let sent = 0;
    let closed = false;
    socket.on('data', (chunk) => {
      reply += chunk.toString();
    });
    socket.on('error', () => undefined); // a reset also counts as closed
    socket.on('close', () => {
      closed = true;
    });
    socket.on('connect', async () => {
      try {
        for (; sent < SLOW_HEADERS.length && !closed; sent++) {
          socket.write(SLOW_HEADERS[sent] as string);
          if (sent === 3) await whileSending();
          await delay(200);
        }
        socket.destroy();
        resolve({ sent, reply });
      } catch (err) {
        socket.destroy();
        reject(err);
      }
    });
  });
}

describe('http.read_header_timeout and http.read_timeout', () => {
  it('lint clean, load as durations, and default to 10s and 60s', async () => {
    const set = await loadHttp('http:\n  read_header_timeout: 1s\n  read_timeout: 5s\n');
    assert.deepEqual(set.lints, []);
    assert.equal(set.config.http.read_header_timeout, '1s');
    assert.equal(set.config.http.read_timeout, '5s');
    const unset = await loadHttp('http:\n  address: 127.0.0.1:0\n');
    assert.equal(unset.config.http.read_header_timeout, '10s');
    assert.equal(unset.config.http.read_timeout, '60s');
  });

  it('refuses a value that is not a duration, or a header limit above the request limit', () => {
    const refusal = (config: Record<string, string>) => {
      try {
        new HttpServer({ config });
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        return err.message;
      }
      return 'accepted';
    };
    assert.match(refusal({ read_header_timeout: 'soon' }), /^http\.read_header_timeout: /);
    assert.match(refusal({ read_timeout: '-1s' }), /^http\.read_timeout: must not be negative/);
    assert.equal(
      refusal({ read_header_timeout: '2m', read_timeout: '1m' }),
      'read_header_timeout must not be longer than read_timeout',
    );
    assert.equal(refusal({ read_header_timeout: '2m', read_timeout: '0s' }), 'accepted');
  });

  it('cuts a slow-loris connection after read_header_timeout and keeps serving /ping', async () => {
    const loaded = await loadHttp('http:\n  address: 127.0.0.1:0\n  read_header_timeout: 1s\n');
    assert.deepEqual(loaded.lints, []);
    const server = new HttpServer({ config: loaded.config.http });
    await server.listen();
    try {
      const pingsDuring: string[] = [];
      const { sent, reply } = await slowLoris(server.port as number, async () => {
        pingsDuring.push((await send(server, '/ping')).body);
      });
      assert.ok(sent < SLOW_HEADERS.length, `the server waited for all ${sent} header bytes`);
      assert.match(reply, /^HTTP\/1\.1 408/);
      assert.deepEqual(pingsDuring, ['pong']);
      assert.equal((await send(server, '/ping')).body, 'pong');
    } finally {
      await server.close();
    }
  });
});
