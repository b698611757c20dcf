// The driver-neutral face each SQL driver (pg, mysql2, SQLite) is put behind.

export type Row = Record<string, unknown>;

export interface SqlSession {
  /** Runs one statement; the rows it returned ([] for statements that return none). */
  query(sql: string, args?: readonly unknown[]): Promise<Row[]>;
}

export interface Pool extends SqlSession {
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
