// The postgres_cdc reader: prepares publication and slot, runs the snapshot when the slot is new,
// then streams pgoutput changes (pg-logical-replication decodes them). The slot's confirmed LSN
// moves only to a commit whose changes, and every earlier one, were acknowledged downstream.

import type pg from 'pg';
import type { LogicalReplicationService, Pgoutput } from 'pg-logical-replication';
import type { Logger } from 'pino';
import type { GroupAckFn, InputReader, Transaction } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { type Batch, Message } from '../../message/message.js';
import { ChangeQueue } from './change_queue.js';
import { OrderedCheckpoint } from './checkpoint.js';
import { pgModuleNow, replicationNow } from './pg_modules.js';
import { type ColumnInfo, type CommonSchema, commonSchema, normaliseRow } from './pg_rows.js';
import { checkSlot, checkWalLevel, ensurePublication } from './pg_setup.js';
import { readSnapshot } from './pg_snapshot.js';

const HEARTBEAT_PREFIX = 'nekton_heartbeat';

export interface PgCdcSettings {
  dsn: string;
  schema: string;
  tables: string[];
  slot_name: string;
  temporary_slot: boolean;
  stream_snapshot: boolean;
  snapshot_batch_size: number;
  include_transaction_markers: boolean;
  checkpoint_limit: number;
  pg_standby_timeout: number;
  heartbeat_interval: number;
  unchanged_toast_value: unknown;
  auto_replay_nacks: boolean;
  ssl?: pg.ClientConfig['ssl'];
}

interface Pending {
  message: Message;
  done: () => string | undefined;
}

export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi || '0'}`) << 32n) | BigInt(`0x${lo || '0'}`);
}

/** `host:port/db` of a DSN, never its password. */
export function describeDsn(dsn: string): string {
  try {
    const url = new URL(dsn);
    return `${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'the configured server';
  }
}

export class PgCdcReader implements InputReader {
  private service: LogicalReplicationService | null = null;
  private admin: pg.Client | null = null;
  private readonly changes = new ChangeQueue<Pending>('postgres_cdc');
  /** Reads waiting for a change (the engine may have more than one running). */
  private checkpoint: OrderedCheckpoint<string>;
  private confirmed: string | null = null;
  private schemas = new Map<number, CommonSchema>();
  private txn: { commitTime: number } | null = null;
  /** Each relation's columns, made once per relation message (not per change). */
  private relationColumns = new Map<number, { relation: Pgoutput.MessageRelation; columns: ColumnInfo[] }>();
  /**
   * Changes decoded while `checkpoint_limit` changes are in flight: the socket is paused, but what
   * it had already read still arrives; they are handled in order as acknowledgements make room.
   */
  private backlog: { lsn: string; log: Pgoutput.Message }[] = [];
  private backlogHead = 0;
  /** The replication connection's socket while it is paused for the backlog. */
  private pausedStream: { resume(): unknown } | null = null;
  private replicationClient: pg.Client | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly state = { closed: false };

  constructor(
    private readonly config: PgCdcSettings,
    private readonly logger: Logger,
  ) {
    this.checkpoint = new OrderedCheckpoint(config.checkpoint_limit);
  }

  private clientConfig(): pg.ClientConfig {
    return { connectionString: this.config.dsn, ...(this.config.ssl ? { ssl: this.config.ssl } : {}) };
  }

  async connect(): Promise<void> {
    await this.teardown();
    this.changes.reset();
    this.checkpoint.release();
    this.checkpoint = new OrderedCheckpoint(this.config.checkpoint_limit);
    const admin = new (pgModuleNow().Client)(this.clientConfig());
    admin.on('error', () => undefined);
    try {
      await admin.connect();
    } catch (err) {
      await admin.end().catch(() => undefined);
      throw new Error(
        `postgres_cdc: dsn: cannot connect to ${describeDsn(this.config.dsn)}: ${errorMessage(err)}`,
      );
    }
    this.admin = admin;
    await checkWalLevel(admin);
    const { slot_name: slot, schema, tables } = this.config;
    const publication = await ensurePublication(admin, slot, schema, tables);
    const { exists } = await checkSlot(admin, slot);
    const create = this.config.temporary_slot || !exists;
    if (this.config.temporary_slot && exists)
      throw new Error(
        `postgres_cdc: slot_name: a slot named '${slot}' exists already; a temporary slot needs a free name`,
      );

    // No flowControl: it awaits an async emit and an acknowledgement per change. Changes are
    // handled synchronously, and the socket is paused while checkpoint_limit changes are in flight.
    const service = new (replicationNow().LogicalReplicationService)(this.clientConfig(), {
      acknowledge: { auto: false, timeoutSeconds: 0 },
    });
    this.service = service;
    // A service replaced by a reconnect (or closed) no longer speaks for this reader.
    const current = () => this.service === service;
    service.on('data', (lsn: string, log: Pgoutput.Message) =>
      current() ? this.onData(lsn, log) : undefined,
    );
    service.on('heartbeat', (_lsn: string, _ts: number, reply: boolean) => this.onKeepalive(reply));
    service.on('error', (err: Error) => {
      if (current()) this.fail(err);
    });
    let ready!: () => void;
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    const plugin = new (replicationNow().PgoutputPlugin)({
      protoVersion: 1,
      publicationNames: [publication],
      messages: true,
    });
    const startReplication = plugin.start.bind(plugin);
    plugin.start = async (client: pg.Client, slotName: string, lastLsn: string) => {
      if (current()) this.replicationClient = client;
      let from = lastLsn;
      if (create) {
        const kind = this.config.temporary_slot ? 'TEMPORARY LOGICAL' : 'LOGICAL';
        const exportMode =
          this.config.stream_snapshot && tables.length > 0 ? 'EXPORT_SNAPSHOT' : 'NOEXPORT_SNAPSHOT';
        const res = await client.query<{ consistent_point: string; snapshot_name: string | null }>(
          `CREATE_REPLICATION_SLOT "${slotName.replace(/"/g, '""')}" ${kind} pgoutput ${exportMode}`,
        );
        const created = res.rows[0]!;
        from = created.consistent_point;
        this.logger.info(`postgres_cdc: created replication slot ${slotName} at ${from}`);
        ready();
        if (created.snapshot_name) await this.snapshot(created.snapshot_name);
      } else {
        ready();
      }
      return startReplication(client, slotName, from);
    };
    const subscription = service.subscribe(plugin, slot).then(
      () => {
        if (current()) this.fail(new Error('postgres_cdc: the replication stream ended'));
      },
      (err: unknown) => {
        if (current()) this.fail(err instanceof Error ? err : new Error(String(err)));
      },
    );
    await Promise.race([
      started,
      subscription.then(() =>
        Promise.reject(this.changes.failure ?? new Error('postgres_cdc: closed while connecting')),
      ),
    ]);
    const standby = setInterval(
      () => void this.sendStatus(),
      Math.max(100, this.config.pg_standby_timeout || 10_000),
    );
    standby.unref();
    this.timers.push(standby);
    if (this.config.heartbeat_interval > 0) {
      const beat = setInterval(() => void this.heartbeat(), this.config.heartbeat_interval);
      beat.unref();
      this.timers.push(beat);
    }
    this.logger.info(`postgres_cdc: streaming changes of slot ${slot} (publication ${publication})`);
  }

  private async snapshot(snapshotName: string): Promise<void> {
    const { schema, tables, snapshot_batch_size } = this.config;
    await readSnapshot(
      this.clientConfig(),
      snapshotName,
      schema,
      tables,
      snapshot_batch_size,
      async ({ table, row, columns }) => {
        const message = Message.fromStructured(normaliseRow(row, columns, null));
        message.setMeta('table', table);
        message.setMeta('operation', 'read');
        message.setMeta('schema', commonSchema(table, columns));
        await this.enqueue(message, undefined);
      },
      () => this.state.closed,
    );
    this.logger.info(`postgres_cdc: snapshot of ${tables.join(', ')} read`);
  }

  private async enqueue(message: Message, position: string | undefined): Promise<void> {
    await this.checkpoint.room(this.state);
    if (this.state.closed) return;
    const tracked = this.checkpoint.track(position);
    this.changes.push({ message, done: tracked.resolve });
  }

  /** A change that moves the checkpoint without a message (a commit when markers are off). */
  private passPosition(position: string): void {
    const moved = this.checkpoint.track(position).resolve();
    if (moved) this.confirm(moved);
  }

  /** A decoded change from the stream: handled now, or kept in order while the checkpoint is full. */
  private onData(lsn: string, log: Pgoutput.Message): void {
    if (this.state.closed) return;
    if (this.backlogHead < this.backlog.length || !this.checkpoint.hasRoom()) {
      this.backlog.push({ lsn, log });
      this.pauseStream();
      return;
    }
    this.handle(lsn, log);
  }

  /** Handles one change; a failure fails the reader (it must not escape into pg's socket parser). */
  private handle(lsn: string, log: Pgoutput.Message): void {
    try {
      this.handleChange(lsn, log);
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Handles backlogged changes while the checkpoint has room; resumes the socket once none are left. */
  private drainBacklog(): void {
    while (this.backlogHead < this.backlog.length && !this.state.closed && this.checkpoint.hasRoom()) {
      const { lsn, log } = this.backlog[this.backlogHead]!;
      this.backlog[this.backlogHead++] = undefined as never;
      this.handle(lsn, log);
    }
    if (this.backlogHead < this.backlog.length) return;
    this.backlog = [];
    this.backlogHead = 0;
    const paused = this.pausedStream;
    this.pausedStream = null;
    paused?.resume();
  }

  private pauseStream(): void {
    if (this.pausedStream) return;
    const stream = this.replicationClient?.connection?.stream;
    if (!stream) return;
    stream.pause();
    this.pausedStream = stream;
  }

  /** Drops the backlog and resumes the socket, so that ending the connection is not held up by it. */
  private clearBacklog(): void {
    this.backlog = [];
    this.backlogHead = 0;
    const paused = this.pausedStream;
    this.pausedStream = null;
    this.replicationClient = null;
    paused?.resume();
  }

  /** Queues a change for the engine; the caller made sure the checkpoint has room. */
  private push(message: Message, position: string | undefined): void {
    const tracked = this.checkpoint.track(position);
    this.changes.push({ message, done: tracked.resolve });
  }

  private handleChange(lsn: string, log: Pgoutput.Message): void {
    const markers = this.config.include_transaction_markers;
    switch (log.tag) {
      case 'begin': {
        this.txn = { commitTime: Math.floor(Number(log.commitTime) / 1000) };
        if (markers) this.push(this.marker('begin', lsn), undefined);
        return;
      }
      case 'commit': {
        if (markers) this.push(this.marker('commit', lsn), lsn);
        else this.passPosition(lsn);
        this.txn = null;
        return;
      }
      case 'relation': {
        const columns = this.columns(log);
        this.relationColumns.set(log.relationOid, { relation: log, columns });
        this.schemas.set(log.relationOid, commonSchema(log.name, columns));
        return;
      }
      case 'insert':
      case 'update':
      case 'delete': {
        const relation = log.relation;
        const columns = this.columnsOf(relation);
        const toast = this.config.unchanged_toast_value ?? null;
        const before = log.tag === 'insert' ? null : (log.old ?? log.key);
        const body =
          log.tag === 'delete'
            ? normaliseRow(before ?? {}, columns, toast, false)
            : normaliseRow(log.new, columns, toast);
        // One Map made here, not a shared empty one copied on the first setMeta.
        const meta = new Map<string, unknown>();
        meta.set('table', relation.name);
        meta.set('operation', log.tag);
        meta.set('lsn', lsn);
        meta.set('schema', this.schemas.get(relation.relationOid) ?? commonSchema(relation.name, columns));
        if (this.txn) meta.set('commit_ts_ms', this.txn.commitTime);
        if (before) meta.set('before', normaliseRow(before, columns, toast, false));
        this.push(Message.fromStructured(body, meta), undefined);
        return;
      }
      case 'message': {
        // A non-transactional heartbeat is a position of its own (changes before it were all sent
        // before it); nekton writes transactional ones (committed, so flushed at once), whose
        // commit moves the slot while the replicated tables are quiet.
        if (!log.transactional && log.prefix === HEARTBEAT_PREFIX && log.messageLsn) this.passPosition(lsn);
        return;
      }
      default:
        return;
    }
  }

  /** The relation's columns, from the cache while the relation message it was made from is current. */
  private columnsOf(relation: Pgoutput.MessageRelation): ColumnInfo[] {
    const known = this.relationColumns.get(relation.relationOid);
    if (known?.relation === relation) return known.columns;
    const columns = this.columns(relation);
    this.relationColumns.set(relation.relationOid, { relation, columns });
    return columns;
  }

  private columns(relation: Pgoutput.MessageRelation): ColumnInfo[] {
    return relation.columns.map((c) => ({ name: c.name, typeOid: c.typeOid }));
  }

  private marker(operation: 'begin' | 'commit', lsn: string): Message {
    const message = new Message(null);
    message.setMeta('operation', operation);
    message.setMeta('lsn', lsn);
    if (this.txn) message.setMeta('commit_ts_ms', this.txn.commitTime);
    return message;
  }

  /**
   * Keepalives are answered with the confirmed position only: their LSN may be ahead of changes
   * still queued for decoding, so it never moves the checkpoint (heartbeat messages do, in order).
   */
  private onKeepalive(reply: boolean): void {
    if (reply) void this.sendStatus();
  }

  private confirm(lsn: string): void {
    this.raise(lsn);
    void this.sendStatus();
  }

  private raise(lsn: string): void {
    if (this.confirmed === null || lsnValue(lsn) > lsnValue(this.confirmed)) this.confirmed = lsn;
  }

  private async sendStatus(): Promise<void> {
    try {
      await this.service?.acknowledge(this.confirmed ?? '0/0');
    } catch (err) {
      this.logger.warn(`postgres_cdc: standby status update failed: ${errorMessage(err)}`);
    }
  }

  private async heartbeat(): Promise<void> {
    try {
      await this.admin?.query(`SELECT pg_logical_emit_message(true, '${HEARTBEAT_PREFIX}', '')`);
    } catch (err) {
      this.logger.warn(`postgres_cdc: heartbeat failed: ${errorMessage(err)}`);
    }
  }

  private fail(err: Error): void {
    if (!this.state.closed) this.changes.fail(err);
  }

  async read(): Promise<Transaction | null> {
    const next = await this.changes.next(() => this.state.closed);
    return next ? this.transaction(next) : null;
  }

  /**
   * The changes already decoded, as one group (at least two): the engine takes them without a
   * read and a promise each. Each change stays its own batch, acknowledged on its own.
   */
  readBufferedGroup(max: number): { batches: Batch[]; ack: GroupAckFn } | undefined {
    if (this.state.closed || this.changes.size < 2) return undefined;
    const items = this.changes.take(max);
    const batches = items.map((item) => [item.message]);
    const pendingOf = new Map<Batch, Pending>();
    for (let i = 0; i < items.length; i++) pendingOf.set(batches[i]!, items[i]!);
    return {
      batches,
      ack: async (err, settled) => {
        // Nacked changes go back to the front in their order: the last one first.
        for (let i = settled.length - 1; i >= 0; i--) this.settle(pendingOf.get(settled[i]!)!, err);
      },
    };
  }

  private transaction(item: Pending): Transaction {
    return { batch: [item.message], ack: async (err) => this.settle(item, err) };
  }

  private settle(item: Pending, err: Error | null): void {
    if (err) {
      // Delivered again before anything newer (the engine replays it itself when auto_replay_nacks is on).
      if (!this.state.closed) {
        this.changes.requeue({ ...item, message: item.message.copy() });
      }
      return;
    }
    const moved = item.done();
    if (moved) this.confirm(moved);
    if (this.backlogHead < this.backlog.length) this.drainBacklog();
  }

  private async teardown(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    const service = this.service;
    this.service = null;
    // Data still arriving is for no one now (onData checks the service is current).
    this.clearBacklog();
    if (service) {
      await service.acknowledge(this.confirmed ?? '0/0').catch(() => undefined);
      await service.destroy().catch(() => undefined);
    }
    const admin = this.admin;
    this.admin = null;
    await admin?.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.state.closed = true;
    this.checkpoint.release();
    this.changes.wakeUp();
    await this.teardown();
  }
}
