// Shared set-up of the postgres_cdc tests: unique tables and slots on the local PostgreSQL, an
// input built through the engine, and clean-up of slots and publications the input created.
import type pg from 'pg';
import { registry } from '../../../src/components/registry.js';
import type { Input, Transaction } from '../../../src/engine/component.js';
import type { ResourceManager } from '../../../src/engine/resources.js';
import { createTestEnv } from '../../helpers/context.js';
import { POSTGRES_DSN, postgresPool, waitFor } from '../../helpers/kit.js';
import { configOf } from '../reference.js';

export { POSTGRES_DSN };

let counter = 0;
export function uniqueName(prefix: string): string {
  counter++;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
}

export class PgFixture {
  readonly pool: pg.Pool = postgresPool();
  private readonly slots: string[] = [];
  private readonly tables: string[] = [];

  /** A table `name (id int primary key, v text)`, dropped at cleanup. */
  async table(prefix = 'cdc', columns = 'id int PRIMARY KEY, v text'): Promise<string> {
    const name = uniqueName(prefix);
    await this.pool.query(`CREATE TABLE ${name} (${columns})`);
    this.tables.push(name);
    return name;
  }

  slot(prefix = 'slot'): string {
    const name = uniqueName(prefix);
    this.slots.push(name);
    return name;
  }

  async query(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    return this.pool.query(sql, params);
  }

  async slotRow(slot: string): Promise<{ active: boolean; confirmed_flush_lsn: string | null } | undefined> {
    const { rows } = await this.pool.query(
      'SELECT active, confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = $1',
      [slot],
    );
    return rows[0];
  }

  async cleanup(): Promise<void> {
    for (const slot of this.slots) {
      await waitFor(async () => !(await this.slotRow(slot))?.active, {
        message: `slot ${slot} inactive`,
      }).catch(() => undefined);
      await this.pool
        .query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1', [
          slot,
        ])
        .catch(() => undefined);
      await this.pool.query(`DROP PUBLICATION IF EXISTS pglog_stream_${slot}`).catch(() => undefined);
    }
    for (const table of this.tables)
      await this.pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await this.pool.end();
  }
}

export interface Running {
  input: Input;
  /**
   * Reads the next transaction, failing after a bound. The bound is generous: creating a logical
   * slot waits for every transaction open in the cluster, which other test files may hold a while.
   */
  next(timeoutMs?: number): Promise<Transaction>;
  stop(): Promise<void>;
}

export async function startInput(
  kind: string,
  config: Record<string, unknown>,
  resources?: ResourceManager,
): Promise<Running> {
  const { builder, abort } = createTestEnv(resources ? { resources } : {});
  const spec = registry.get('input', kind);
  if (!spec) throw new Error(`no input ${kind}`);
  const input = await builder.buildInput({
    type: kind,
    label: '',
    config: configOf(spec, config),
    processors: [],
    path: 'root.input',
    raw: { [kind]: config },
  });
  // Transactions handed out and not settled yet: stop() nacks them, because an input's close()
  // waits for every outstanding ack (a test that failed before acking would hang there instead).
  const unsettled = new Set<Transaction>();
  const tracked = (txn: Transaction): Transaction => {
    const settle = txn.ack;
    const own: Transaction = {
      ...txn,
      ack: (err) => {
        unsettled.delete(own);
        return settle(err);
      },
    };
    unsettled.add(own);
    return own;
  };
  // The first read starts at once (the engine connects on it); later ones when asked for.
  let pending: Promise<Transaction | null> | null = input.read();
  return {
    input,
    next: async (timeoutMs = 45_000) => {
      const read = pending ?? input.read();
      pending = null;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Whatever the read brings later goes back to the source.
          read.then(
            (late) => late?.ack(new Error('the test stopped waiting')),
            () => undefined,
          );
          reject(new Error(`no message from ${kind} within ${timeoutMs}ms`));
        }, timeoutMs);
      });
      try {
        const txn = await Promise.race([read, timeout]);
        if (!txn) throw new Error(`${kind} ended`);
        return tracked(txn);
      } finally {
        clearTimeout(timer);
      }
    },
    stop: async () => {
      for (const txn of [...unsettled]) await txn.ack(new Error('the test stopped')).catch(() => undefined);
      await input.close();
      abort.abort();
    },
  };
}

/** A transaction's one message as [operation, table, body]. */
export function summary(txn: Transaction): [unknown, unknown, unknown] {
  const m = txn.batch[0]!;
  return [m.getMeta('operation'), m.getMeta('table'), m.bytes().length ? JSON.parse(m.text()) : null];
}
