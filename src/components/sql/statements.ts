// The statement list of `sql_raw` (processor and output): `query` plus `queries`, each with its own
// arguments, optionally interpolated per message (`unsafe_dynamic_query`) or guarded by `when`.
import type { Interpolation, Mapping } from '../../bloblang/index.js';
import type { BuildContext } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { argsOf } from './args.js';
import type { Row, SqlDatabase, SqlSession } from './client.js';

export interface RawQueryConfig {
  query: string;
  args_mapping?: string;
  exec_only?: boolean;
  when?: string;
}

export interface RawStatementsConfig {
  query?: string;
  unsafe_dynamic_query: boolean;
  args_mapping?: string;
  exec_only?: boolean;
  queries?: RawQueryConfig[];
}

interface Statement {
  text: string;
  dynamic: Interpolation | null;
  args: Mapping | null;
  execOnly: boolean;
  when: Mapping | null;
}

/** One statement prepared for one message. */
export interface BoundStatement {
  sql: string;
  args: unknown[];
  execOnly: boolean;
}

export function lintStatements(config: RawStatementsConfig): string[] {
  const hasQuery = Boolean(config.query?.trim());
  const hasQueries = (config.queries?.length ?? 0) > 0;
  if (!hasQuery && !hasQueries) return ['either field query or field queries is required'];
  return [];
}

export class RawStatements {
  private readonly list: Statement[] = [];

  constructor(config: RawStatementsConfig, ctx: BuildContext) {
    const add = (q: RawQueryConfig, path: string) => {
      this.list.push({
        text: q.query,
        dynamic: config.unsafe_dynamic_query ? ctx.interpolation(q.query, `${path}query`) : null,
        args: q.args_mapping ? ctx.mapping(q.args_mapping, `${path}args_mapping`) : null,
        execOnly: q.exec_only ?? false,
        when: q.when ? ctx.mapping(q.when, `${path}when`) : null,
      });
    };
    if (config.query?.trim())
      add({ query: config.query, args_mapping: config.args_mapping, exec_only: config.exec_only }, '');
    config.queries?.forEach((q, i) => {
      add(q, `queries.${i}.`);
    });
    if (this.list.length === 0) throw new Error('either field query or field queries is required');
  }

  /** The statements that apply to message `index`, with their SQL and arguments. */
  bind(batch: Batch, index: number): BoundStatement[] {
    const out: BoundStatement[] = [];
    for (const s of this.list) {
      if (s.when && s.when.query(batch, index) !== true) continue;
      out.push({
        sql: s.dynamic ? s.dynamic.render(batch, index) : s.text,
        args: argsOf(s.args, batch, index),
        execOnly: s.execOnly,
      });
    }
    return out;
  }
}

/** Runs bound statements (in one transaction when more than one); the rows of the last that returns them. */
export async function runBound(db: SqlDatabase, bound: BoundStatement[]): Promise<Row[] | null> {
  const runAll = async (session: SqlSession) => {
    let result: Row[] | null = null;
    for (const b of bound) {
      const rows = await session.query(b.sql, b.args);
      if (!b.execOnly) result = rows;
    }
    return result;
  };
  if (bound.length === 1) return runAll(db);
  return db.transaction(runAll);
}
