// kill -9 on a durable MQTT source (issue 7): a nekton process consumes QoS 1 with a persistent
// session (clean_session: false, fixed client_id) from Mosquitto into PostgreSQL. It is SIGKILLed
// mid-stream and restarted with the same client_id: the broker keeps what was unacknowledged or
// published meanwhile, so every id arrives. Duplicates are at-least-once's price and are counted.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connectAsync, type MqttClient } from 'mqtt';
import type pg from 'pg';
import { tempDir } from '../helpers/cli.js';
import { freePort, MQTT_URL, POSTGRES_DSN, postgresPool, requireService, waitFor } from '../helpers/kit.js';
import { countFromEnv } from './support.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MAIN = join(ROOT, 'src', 'cli', 'main.ts');
// Mosquitto queues at most 1000 QoS 1 messages per offline session by default: stay below it.
const N = Math.min(countFromEnv('NEKTON_KILL_MQTT_N', 600), 900);

const run = randomBytes(4).toString('hex');
const topic = `nekton-test/${run}/kill`;
const clientId = `nekton-kill-${run}`;
const table = `nekton_kill_mqtt_${run}`;
const dir = tempDir('nekton-kill-mqtt-');

interface Instance {
  child: ChildProcess;
  port: number;
  output(): string;
}

function configYaml(port: number, instance: string): string {
  return `http:
  address: 127.0.0.1:${port}
logger:
  level: WARN
input:
  mqtt:
    urls: [ ${MQTT_URL} ]
    topics: [ ${topic} ]
    qos: 1
    client_id: ${clientId}
    clean_session: false
output:
  sql_insert:
    driver: postgres
    dsn: ${POSTGRES_DSN}
    table: ${table}
    columns: [ id, instance, duplicate ]
    args_mapping: 'root = [ this.id, "${instance}", @mqtt_duplicate.string() ]'
`;
}

async function startInstance(name: string): Promise<Instance> {
  const port = await freePort();
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, configYaml(port, name));
  // Through tsx: the sources under test, whether or not dist/ was rebuilt since they changed.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '-c', file], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  return { child, port, output: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function isReady(i: Instance): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${i.port}/ready`, { signal: AbortSignal.timeout(1000) });
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** What is awaited, followed by the instances' logs (read when a wait times out). */
const withLogs = (what: string) => () =>
  `${what}\n${instances.map((i) => i.output().slice(-3000)).join('\n---\n')}`;

const instances: Instance[] = [];
let db: pg.Pool | null = null;
let publisher: MqttClient | null = null;

describe('kill -9 on an mqtt QoS 1 persistent session', () => {
  after(async () => {
    for (const i of instances) {
      const done = exited(i.child);
      i.child.kill('SIGKILL');
      await done;
    }
    await publisher?.endAsync().catch(() => undefined);
    // Forget the persistent session so the shared broker does not keep queueing for it.
    const forget = await connectAsync(MQTT_URL, { clientId, clean: true, reconnectPeriod: 0 }).catch(
      () => null,
    );
    await forget?.endAsync();
    await db?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await db?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers every published message after a SIGKILL and restart', async (t) => {
    if (!(await requireService(t, 'mqtt')) || !(await requireService(t, 'postgres'))) return;
    db = postgresPool();
    // No unique constraint: duplicates must be visible to be counted.
    await db.query(
      `CREATE TABLE ${table} (seq bigserial PRIMARY KEY, id text NOT NULL, instance text NOT NULL, duplicate text NOT NULL)`,
    );
    const pool = db;
    const count = async () => {
      const { rows } = await pool.query(
        `SELECT count(*)::int AS rows, count(DISTINCT id)::int AS distinct FROM ${table}`,
      );
      return rows[0] as { rows: number; distinct: number };
    };

    const first = await startInstance('a');
    instances.push(first);
    await waitFor(
      async () => {
        if (first.child.exitCode !== null) throw new Error(`nekton exited:\n${first.output()}`);
        return (await isReady(first)) || false;
      },
      { message: withLogs('the first instance to be ready'), timeoutMs: 30_000, failFast: true },
    );

    publisher = await connectAsync(MQTT_URL, { reconnectPeriod: 0 });
    const pub = publisher;
    const width = String(N).length;
    const body = (i: number) => JSON.stringify({ id: `m${String(i).padStart(width, '0')}` });
    const publish = async (from: number, to: number) => {
      const ids = Array.from({ length: to - from }, (_, k) => from + k);
      await Promise.all(ids.map((i) => pub.publishAsync(topic, body(i), { qos: 1 })));
    };
    // The first half in one burst: nekton writes one QoS 1 message at a time, so a backlog builds
    // up and the kill lands with messages received (or queued for it) but not yet written. An
    // input that acknowledged on receipt would lose that backlog.
    const half = Math.floor(N / 2);
    await publish(0, half);
    const atKill = await waitFor(
      async () => {
        const c = await count();
        return c.distinct >= half / 3 ? c : false;
      },
      { message: withLogs('a third of the first half'), timeoutMs: 60_000 },
    );
    first.child.kill('SIGKILL');
    await exited(first.child);
    assert.equal(first.child.signalCode, 'SIGKILL');
    const writtenAtExit = (await count()).distinct;
    assert.ok(writtenAtExit < half, `the kill must land mid-stream (${writtenAtExit} of ${half} written)`);
    // The second half goes to the session while no instance is connected.
    await publish(half, N);

    const second = await startInstance('b');
    instances.push(second);
    const final = await waitFor(
      async () => {
        if (second.child.exitCode !== null) throw new Error(`restarted nekton exited:\n${second.output()}`);
        const c = await count();
        return c.distinct >= N ? c : false;
      },
      { message: withLogs('every id in PostgreSQL'), timeoutMs: 60_000, failFast: true },
    );
    // Let redeliveries still in flight land so the duplicate count is complete.
    await new Promise((r) => setTimeout(r, 300));
    const settled = await count();
    const { rows: per } = await pool.query(
      `SELECT instance, count(*)::int AS n, count(*) FILTER (WHERE duplicate = 'true')::int AS dup_flag FROM ${table} GROUP BY instance ORDER BY instance`,
    );
    t.diagnostic(
      `n=${N} distinct=${settled.distinct} rows=${settled.rows} duplicates=${settled.rows - settled.distinct} ` +
        `killed at ${atKill.distinct} written of ${half} published (${writtenAtExit} at exit); ` +
        `per instance ${per.map((r) => `${r.instance}=${r.n} (mqtt_duplicate ${r.dup_flag})`).join(' ')}`,
    );
    assert.equal(final.distinct, N, 'every published id arrived');
    assert.equal(settled.distinct, N);
    // The restarted instance did real work: the kill happened before everything was written.
    assert.ok(
      per.some((r) => r.instance === 'b' && r.n > 0),
      'the restarted instance wrote the rest',
    );
  });
});
