// The driver-neutral face each SQL driver (pg, mysql2, SQLite) is put behind.

export type Row = Record<string, unknown>;

/** How a statement is run. */
export interface QueryOptions {
  /**
   * The caller runs this exact text again and again (a full batch's INSERT): postgres then keeps it
   * as a named prepared statement on each connection, parsed once instead of on every run. Callers
   * pass it for a bounded set of texts: each one holds server memory on every connection.
   */
  reuse?: boolean;
}

export interface SqlSession {
  /** Runs one statement; the rows it returned ([] for statements that return none). */
  query(sql: string, args?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
}

export interface Pool extends SqlSession {
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
