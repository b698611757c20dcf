// The sql cache against the local PostgreSQL and MariaDB: get/set/add/delete, set_suffix upserts,
// a killed connection replaced on the next operation, and errors naming the address or the field.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintServiceConfig } from '../../../src/config/lint_config.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Cache } from '../../../src/engine/component.js';
import { createTestEnv } from '../../helpers/context.js';
import { closedPort, requireService } from '../../helpers/kit.js';
import { mariadb, postgres, type TestDatabase, uniqueTable } from './databases.js';

const provider = schemaProvider(registry);
const env = createTestEnv();
const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());
const bytes = (s: string) => Buffer.from(s);

async function buildCache(raw: Record<string, unknown>): Promise<Cache> {
  const cfg = normaliseComponent(
    'cache',
    { sql: raw },
    { docPath: [], configPath: 'root.cache' },
    { provider },
  );
  return (await env.builder.buildCache(cfg)) as Cache;
}

const upsert = {
  postgres: 'ON CONFLICT (k) DO UPDATE SET v = excluded.v',
  mariadb: 'ON DUPLICATE KEY UPDATE v = VALUES(v)',
};

for (const make of [postgres, mariadb]) {
  const db: TestDatabase = make();
  const tables: string[] = [];

  describe(`sql cache on ${db.name}`, () => {
    after(async () => {
      for (const t of tables) await db.sql(`DROP TABLE IF EXISTS ${t}`).catch(() => undefined);
      await db.close().catch(() => undefined);
    });

    async function table(): Promise<string> {
      const name = uniqueTable('nekton_cache');
      tables.push(name);
      await db.sql(`CREATE TABLE ${name} (k VARCHAR(200) PRIMARY KEY, v TEXT)`);
      return name;
    }

    it('gets, adds only absent keys, deletes; set without a suffix is a plain insert', async (t) => {
      if (!(await requireService(t, db.service))) return;
      const name = await table();
      const cache = await buildCache({
        driver: db.driver,
        dsn: db.dsn,
        table: name,
        key_column: 'k',
        value_column: 'v',
      });
      try {
        assert.equal(await cache.get('a'), undefined);
        assert.equal(await cache.add('a', bytes('1')), true);
        assert.equal(text(await cache.get('a')), '1');
        assert.equal(await cache.add('a', bytes('2')), false, 'add refuses an existing key');
        assert.equal(text(await cache.get('a')), '1');
        await assert.rejects(cache.set('a', bytes('3')), /duplicate/i, 'set without set_suffix collides');
        await cache.set('b', bytes('héllo'));
        assert.equal(text(await cache.get('b')), 'héllo');
        await cache.delete('a');
        assert.equal(await cache.get('a'), undefined);
        await cache.delete('never-there');
        const rows = await db.sql(`SELECT k, v FROM ${name} ORDER BY k`);
        assert.deepEqual(
          rows.map((r) => [r.k, r.v]),
          [['b', 'héllo']],
        );
      } finally {
        await cache.close();
      }
    });

    it('set with set_suffix upserts', async (t) => {
      if (!(await requireService(t, db.service))) return;
      const name = await table();
      const cache = await buildCache({
        driver: db.driver,
        dsn: db.dsn,
        table: name,
        key_column: 'k',
        value_column: 'v',
        set_suffix: upsert[db.name],
      });
      try {
        await cache.set('k1', bytes('one'));
        await cache.set('k1', bytes('uno'));
        assert.equal(text(await cache.get('k1')), 'uno');
        assert.equal((await db.sql(`SELECT v FROM ${name}`)).length, 1);
      } finally {
        await cache.close();
      }
    });

    it('replaces a killed connection on the next operation', async (t) => {
      if (!(await requireService(t, db.service))) return;
      const name = await table();
      const iso = await db.isolated();
      const cache = await buildCache({
        driver: db.driver,
        dsn: iso.dsn,
        table: name,
        key_column: 'k',
        value_column: 'v',
      });
      try {
        await cache.set('x', bytes('before'));
        assert.ok((await iso.kill()) >= 1, 'a connection was killed');
        assert.equal(text(await cache.get('x')), 'before');
        await cache.set('y', bytes('after'));
        assert.equal(text(await cache.get('y')), 'after');
      } finally {
        await cache.close();
        await iso.drop();
      }
    });

    it('an unreachable server is an error naming the address', async (t) => {
      if (!(await requireService(t, db.service))) return;
      const port = await closedPort();
      const dsn =
        db.name === 'postgres'
          ? `postgres://postgres@127.0.0.1:${port}/test?sslmode=disable`
          : `root@tcp(127.0.0.1:${port})/test`;
      const cache = await buildCache({
        driver: db.driver,
        dsn,
        table: 't',
        key_column: 'k',
        value_column: 'v',
      });
      try {
        await assert.rejects(cache.get('a'), new RegExp(`127\\.0\\.0\\.1:${port}`));
      } finally {
        await cache.close();
      }
    });
  });
}

describe('sql cache lint', () => {
  it('a driver nekton cannot open fails lint at the driver', () => {
    const yaml = `input:
  generate:
    mapping: root = 1
output:
  drop: {}
cache_resources:
  - label: c
    sql:
      driver: oracle
      dsn: oracle://x
      table: t
      key_column: k
      value_column: v
`;
    const lints = lintServiceConfig(parseYaml(yaml), {
      provider,
      bloblang: bloblangChecker,
      withStreamSections: true,
    }).map(formatApiLint);
    assert.equal(lints.length, 1, JSON.stringify(lints));
    assert.match(lints[0] as string, /driver: sql driver 'oracle' is not supported/);
  });
});
