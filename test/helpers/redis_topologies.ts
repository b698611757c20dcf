// Redis topologies of a test's own, started from redis-server on free ports: a cluster of masters
// (for `kind: cluster`) and a master, a replica and one sentinel (for `kind: failover`). Every
// child is killed by dispose(); call it in an `after`/`finally`.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from './ports.js';
import { PrivateServer } from './private_server.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/**
 * Call first in a test that starts its own Redis topology: false (the test skipped) when
 * redis-server or redis-cli is not installed on a developer machine; throws on CI.
 */
export async function requireRedisBinaries(t: Pick<TestContext, 'skip'>): Promise<boolean> {
  const found = await Promise.all(
    ['redis-server', 'redis-cli'].map((bin) =>
      run(bin, ['--version'], { timeout: 10_000 }).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (found.every(Boolean)) return true;
  const message = 'redis-server and redis-cli are not both installed';
  if (process.env.CI === 'true') throw new Error(`${message} (CI=true: connector tests must not skip)`);
  t.skip(`${message}; install them to run this test`); // justified: off CI only, CI=true throws above
  return false;
}

/** One redis-cli command against 127.0.0.1:port; its trimmed output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], {
    timeout: 10_000,
  });
  return stdout.trim();
}

/** A redis-server (or sentinel) process with the given extra arguments. */
class RedisProcess extends PrivateServer {
  constructor(
    port: number,
    private readonly extra: (dir: string) => string[],
    private readonly sentinel = false,
  ) {
    super(port, sentinel ? 'sentinel' : 'redis-node');
  }

  protected command(): [string, string[]] {
    const base = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir];
    if (this.sentinel) return ['redis-server', [join(this.dir, 'sentinel.conf'), '--sentinel', ...base]];
    return ['redis-server', [...base, '--save', '', '--appendonly', 'no', ...this.extra(this.dir)]];
  }

  protected waitReady(): Promise<unknown> {
    return waitFor(async () => (await redisCli(this.port, 'PING')) === 'PONG', {
      message: `redis on port ${this.port}`,
    });
  }
}

/** A cluster of `masters` masters, no replicas, every slot assigned. */
export class RedisClusterTopology {
  private constructor(readonly nodes: RedisProcess[]) {}

  static async start(masters = 3): Promise<RedisClusterTopology> {
    const nodes: RedisProcess[] = [];
    const topology = new RedisClusterTopology(nodes);
    try {
      for (let i = 0; i < masters; i++) {
        const node = new RedisProcess(await freePort(), (dir) => [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, 'nodes.conf'),
        ]);
        nodes.push(node);
        await node.restart();
      }
      const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
      await run(
        'redis-cli',
        ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
        {
          timeout: 30_000,
        },
      );
      await waitFor(
        async () => {
          for (const n of nodes) {
            if (!(await redisCli(n.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
          }
          return true;
        },
        { message: 'cluster_state:ok on every node', timeoutMs: 20_000 },
      );
    } catch (err) {
      await topology.dispose();
      throw err;
    }
    return topology;
  }

  /** Every node, comma-separated, as the `url` field takes them. */
  get url(): string {
    return this.nodes.map((n) => `redis://127.0.0.1:${n.port}`).join(',');
  }

  /** The port of the master that owns `key`. */
  async ownerOf(key: string): Promise<number> {
    const slot = Number(await redisCli(this.nodes[0]!.port, 'CLUSTER', 'KEYSLOT', key));
    for (const n of this.nodes) {
      const shards = await redisCli(n.port, 'CLUSTER', 'MYID');
      const nodes = await redisCli(n.port, 'CLUSTER', 'NODES');
      const mine = nodes.split('\n').find((l) => l.startsWith(shards));
      for (const range of (mine ?? '').split(' ').slice(8)) {
        const [lo, hi] = range.split('-').map(Number);
        if (lo !== undefined && slot >= lo && slot <= (hi ?? lo)) return n.port;
      }
    }
    throw new Error(`no node owns slot ${slot}`);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.dispose()));
  }
}

/** A master, its replica and one sentinel monitoring them as `name`, with quick failure detection. */
export class RedisFailoverTopology {
  private constructor(
    readonly master: RedisProcess,
    readonly replica: RedisProcess,
    readonly sentinel: RedisProcess,
    readonly name: string,
  ) {}

  static async start(name = 'mymaster'): Promise<RedisFailoverTopology> {
    const masterPort = await freePort();
    const master = new RedisProcess(masterPort, () => []);
    const replica = new RedisProcess(await freePort(), () => [
      '--replicaof',
      '127.0.0.1',
      String(masterPort),
    ]);
    const sentinel = new RedisProcess(await freePort(), () => [], true);
    const topology = new RedisFailoverTopology(master, replica, sentinel, name);
    try {
      await master.restart();
      await replica.restart();
      await waitFor(
        async () => (await redisCli(replica.port, 'INFO', 'replication')).includes('master_link_status:up'),
        { message: 'the replica in sync', timeoutMs: 20_000 },
      );
      // The sentinel rewrites its config file, so it lives in the sentinel's own directory.
      writeFileSync(
        join(sentinel.dir, 'sentinel.conf'),
        [
          `sentinel monitor ${name} 127.0.0.1 ${masterPort} 1`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 3000`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      await sentinel.restart();
      await waitFor(
        async () =>
          (await redisCli(sentinel.port, 'SENTINEL', 'REPLICAS', name)).includes(String(replica.port)),
        { message: 'the sentinel to see the replica', timeoutMs: 20_000 },
      );
    } catch (err) {
      await topology.dispose();
      throw err;
    }
    return topology;
  }

  /** The sentinel's address, as the `url` field takes it with `kind: failover`. */
  get url(): string {
    return `redis://127.0.0.1:${this.sentinel.port}`;
  }

  /** The port the sentinel currently names as master. */
  async masterPort(): Promise<number> {
    const reply = await redisCli(this.sentinel.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.name);
    return Number(reply.split('\n')[1]);
  }

  /** Kills the master (SIGKILL) and waits until the sentinel has promoted the replica. */
  async killMasterAndWaitForPromotion(): Promise<void> {
    await this.master.kill();
    await waitFor(async () => (await this.masterPort()) === this.replica.port, {
      message: 'the sentinel to promote the replica',
      timeoutMs: 30_000,
    });
    await waitFor(async () => (await redisCli(this.replica.port, 'ROLE')).startsWith('master'), {
      message: 'the replica to become master',
    });
  }

  async dispose(): Promise<void> {
    await Promise.all([this.sentinel.dispose(), this.replica.dispose(), this.master.dispose()]);
  }
}
