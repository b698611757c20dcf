// Reads the rows of one query as messages (one JSON object per row), then ends: the shared body
// of the `sql_select` and `sql_raw` inputs.
import type { Mapping } from '../../bloblang/index.js';
import type { InputReader, Transaction } from '../../engine/component.js';
import { Message } from '../../message/message.js';
import { argsOf } from './args.js';
import type { Row, SqlDatabase } from './client.js';

const settled = async (): Promise<void> => {};

export class SqlQueryReader implements InputReader {
  private rows: Row[] | null = null;
  private next = 0;
  private closed = false;

  constructor(
    private readonly db: SqlDatabase,
    private readonly sql: string,
    private readonly args: Mapping | null,
  ) {}

  connect(): Promise<void> {
    return this.db.connect();
  }

  async read(): Promise<Transaction | null> {
    if (this.closed) return null;
    if (!this.rows) {
      // The mapping sees an empty message: it can use env(), now() and the like, not content.
      const args = argsOf(this.args, [new Message(null)], 0);
      this.rows = await this.db.query(this.sql, args);
      // The result is in memory; the connection is no longer needed.
      await this.db.close();
    }
    const row = this.rows[this.next];
    if (row === undefined) return null;
    this.rows[this.next++] = {};
    return { batch: [Message.fromStructured(row)], ack: settled };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.db.close();
  }
}
