// The statement list of `sql_raw` (processor and output): `query` plus `queries`, each with its own
// arguments, optionally interpolated per message (`unsafe_dynamic_query`) or guarded by `when`.
import type { Interpolation, Mapping } from '../../bloblang/index.js';
import { type ConfigOf, type FieldLint, field } from '../../config/spec.js';
import type { BuildContext } from '../../engine/context.js';
import type { Batch } from '../../message/message.js';
import { argsOf } from './args.js';
import type { Row, SqlDatabase, SqlSession } from './client.js';
import { argsMappingField, lintSqlDriver } from './fields.js';

const queryField = () =>
  field.string(
    'query',
    'The statement, with placeholders (`$1`... for postgres, `?` for mysql and sqlite).',
    {
      examples: ['INSERT INTO footable (foo, bar) VALUES ($1, $2);'],
    },
  );
const execOnlyField = () => field.bool('exec_only', "Discard the statement's result.", { optional: true });
const whenField = () =>
  field.mapping('when', 'A Bloblang query: the statement runs for a message only when it returns true.', {
    optional: true,
    examples: ['this.kind == "delete"'],
  });

/** The fields of one item of `queries`: the processor's end with `exec_only`, the output's with `when`. */
export function rawQueryFields(last: 'exec_only' | 'when') {
  return [
    queryField(),
    argsMappingField(true),
    last === 'exec_only' ? execOnlyField() : whenField(),
  ] as const;
}

export function rawTopFields() {
  return [
    field.string(
      'query',
      'The statement to run, with placeholders (`$1`... for postgres, `?` for mysql and sqlite).',
      {
        optional: true,
        examples: ['SELECT * FROM footable WHERE user_id = $1;'],
      },
    ),
    field.bool(
      'unsafe_dynamic_query',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      'Interpolate `${! }` in the query per message. Never put message content there: it is an SQL injection; pass values through `args_mapping`.',
      {
        default: false,
        advanced: true,
      },
    ),
    argsMappingField(true),
  ] as const;
}

/** One parsed item of `queries` (either variant). */
type RawQueryConfig = ConfigOf<
  readonly [ReturnType<typeof queryField>, ReturnType<typeof argsMappingField>]
> &
  Partial<ConfigOf<readonly [ReturnType<typeof execOnlyField>, ReturnType<typeof whenField>]>>;

/** What RawStatements reads of a parsed sql_raw config (processor or output). */
export type RawStatementsConfig = ConfigOf<ReturnType<typeof rawTopFields>> &
  Partial<ConfigOf<readonly [ReturnType<typeof execOnlyField>]>> & {
    // An element type admits undefined (the `queries` object is optional); a list never holds it.
    queries?: readonly (RawQueryConfig | undefined)[];
  };

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

export function lintStatements(config: {
  driver?: unknown;
  query?: string;
  queries?: readonly unknown[];
}): (string | FieldLint)[] {
  const problems: (string | FieldLint)[] = lintSqlDriver(config);
  const hasQuery = Boolean(config.query?.trim());
  const hasQueries = (config.queries?.length ?? 0) > 0;
  if (!hasQuery && !hasQueries) problems.push('either field query or field queries is required');
  return problems;
}

export class RawStatements {
  private readonly list: Statement[] = [];

  constructor(config: RawStatementsConfig, ctx: BuildContext) {
    const add = (q: RawQueryConfig, path: string) => {
      this.list.push({
        text: q.query,
        // Interpolated only with unsafe_dynamic_query, so the spec cannot compile it.
        dynamic: config.unsafe_dynamic_query ? ctx.interpolation(q.query, `${path}query`) : null,
        args: q.args_mapping ?? null,
        execOnly: q.exec_only ?? false,
        when: q.when ?? null,
      });
    };
    if (config.query?.trim())
      add({ query: config.query, args_mapping: config.args_mapping, exec_only: config.exec_only }, '');
    config.queries?.forEach((q, i) => {
      if (q) add(q, `queries.${i}.`);
    });
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
