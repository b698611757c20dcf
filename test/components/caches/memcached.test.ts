// The memcached cache against a local memcached (Debian's; started here when it is installed but
// not running, as .ci/run does), and a private memcached killed and restarted under the cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { before, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestEnv } from '../../helpers/context.js';
import {
  closedPort,
  freePort,
  isReachable,
  MEMCACHED_ADDRESS,
  PrivateServer,
  requireService,
  waitFor,
} from '../../helpers/kit.js';

const provider = schemaProvider(registry);
const env = createTestEnv();
const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());
const bytes = (s: string) => Buffer.from(s);

async function buildCache(raw: Record<string, unknown>): Promise<Cache> {
  const cfg = normaliseComponent(
    'cache',
    { memcached: raw },
    { docPath: [], configPath: 'root.cache' },
    { provider },
  );
  return (await env.builder.buildCache(cfg)) as Cache;
}

/** Sends one text-protocol command to a memcached and returns its reply line. */
function raw(address: string, command: string): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port: Number(port) });
    let reply = '';
    socket.on('data', (d) => {
      reply += d.toString();
      if (reply.endsWith('\r\n')) {
        socket.end();
        resolve(reply);
      }
    });
    socket.on('error', reject);
    socket.write(`${command}\r\n`);
  });
}

class PrivateMemcached extends PrivateServer {
  private constructor(port: number) {
    super(port, 'memcached');
  }

  static async start(): Promise<PrivateMemcached> {
    const server = new PrivateMemcached(await freePort());
    await server.restart();
    return server;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  protected command(): [string, string[]] {
    return ['memcached', ['-u', 'nobody', '-l', '127.0.0.1', '-p', String(this.port), '-U', '0']];
  }

  protected waitReady(): Promise<unknown> {
    return waitFor(
      () =>
        raw(this.address, 'version').then(
          (r) => r.startsWith('VERSION'),
          () => false,
        ),
      { message: `memcached on port ${this.port}` },
    );
  }
}

const unique = () => `nekton-test-${process.pid}-${randomBytes(4).toString('hex')}:`;

describe('memcached cache', () => {
  before(async () => {
    // As .ci/run does: start Debian's memcached when it is installed and not running.
    if (!(await isReachable('memcached')) && spawnSync('sh', ['-c', 'command -v memcached']).status === 0) {
      spawnSync('memcached', ['-d', '-u', 'nobody', '-l', '127.0.0.1', '-p', '11211']);
      await waitFor(() => isReachable('memcached'), { message: 'memcached started' }).catch(() => undefined);
    }
  });

  it('gets, sets, adds only absent keys and deletes, under the prefix', async (t) => {
    if (!(await requireService(t, 'memcached'))) return;
    const prefix = unique();
    const cache = await buildCache({ addresses: [MEMCACHED_ADDRESS], prefix });
    try {
      assert.equal(await cache.get('a'), undefined);
      await cache.set('a', bytes('1'));
      assert.equal(text(await cache.get('a')), '1');
      assert.match(
        await raw(MEMCACHED_ADDRESS, `get ${prefix}a`),
        /^VALUE .* 1\r\n1\r\n/,
        'stored under the prefix',
      );
      assert.equal(await cache.add('a', bytes('2')), false, 'add refuses an existing key');
      assert.equal(text(await cache.get('a')), '1');
      assert.equal(await cache.add('b', bytes('3')), true);
      assert.equal(text(await cache.get('b')), '3');
      await cache.delete('a');
      assert.equal(await cache.get('a'), undefined);
      await cache.delete('never-there');
      const binary = Buffer.from([0, 255, 10, 13, 32]);
      await cache.set('bin', binary);
      assert.deepEqual(Buffer.from((await cache.get('bin')) ?? []), binary);
    } finally {
      await cache.close();
    }
  });

  it('items expire after their TTL (default_ttl unless the write gives one)', async (t) => {
    if (!(await requireService(t, 'memcached'))) return;
    const prefix = unique();
    const cache = await buildCache({ addresses: [MEMCACHED_ADDRESS], prefix, default_ttl: '1s' });
    try {
      await cache.set('short', bytes('x'));
      await cache.set('long', bytes('y'), 3_600_000);
      await waitFor(async () => (await cache.get('short')) === undefined, {
        message: 'the short item expired',
        timeoutMs: 5000,
      });
      assert.equal(text(await cache.get('long')), 'y', 'an explicit TTL outlives the default');
    } finally {
      await cache.close();
    }
  });

  it('a server killed and restarted: operations fail naming it, then work again', async (t) => {
    if (!(await requireService(t, 'memcached'))) return;
    const server = await PrivateMemcached.start();
    const cache = await buildCache({
      addresses: [server.address],
      retries: { initial_interval: '10ms', max_interval: '20ms', max_elapsed_time: '100ms' },
    });
    try {
      await cache.set('k', bytes('v'));
      assert.equal(text(await cache.get('k')), 'v');
      await server.kill();
      await assert.rejects(
        cache.get('k'),
        new RegExp(`memcached get at 127\\.0\\.0\\.1:${server.port} failed`),
      );
      await server.restart();
      // A restarted memcached is empty; the cache reconnects by itself.
      await waitFor(async () => (await cache.add('k', bytes('again')).catch(() => null)) === true, {
        message: 'an add after the restart',
      });
      assert.equal(text(await cache.get('k')), 'again');
    } finally {
      await cache.close();
      await server.dispose();
    }
  });

  it('an address nothing listens on fails after the retries, naming it', async (t) => {
    if (!(await requireService(t, 'memcached'))) return;
    const port = await closedPort();
    const cache = await buildCache({
      addresses: [`127.0.0.1:${port}`],
      retries: { initial_interval: '10ms', max_interval: '10ms', max_elapsed_time: '50ms' },
    });
    try {
      await assert.rejects(cache.set('a', bytes('1')), new RegExp(`127\\.0\\.0\\.1:${port}`));
    } finally {
      await cache.close();
    }
  });

  it('lints an empty address list', () => {
    const yaml = `input:
  generate:
    mapping: root = 1
output:
  drop: {}
cache_resources:
  - label: c
    memcached:
      addresses: []
`;
    const lints = lintServiceConfig(parseYaml(yaml), {
      provider,
      bloblang: bloblangChecker,
      withStreamSections: true,
    }).map(formatApiLint);
    assert.equal(lints.length, 1, JSON.stringify(lints));
    assert.match(lints[0] as string, /addresses: at least one memcached address is required/);
  });
});
