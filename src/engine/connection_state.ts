// The connection state an input or output wrapper reports to /ready: whether it is connected, the
// last error, the connection metrics and log lines, and the reconnect backoff both wrappers use.
import type { Logger } from 'pino';
import { Backoff } from './backoff.js';
import type { ConnectionStatus } from './component.js';
import type { Counter, MetricsScope } from './context.js';
import { errorMessage } from './errors.js';

const RECONNECT_BACKOFF = { initialMs: 500, maxMs: 10_000, maxElapsedMs: 0, multiplier: 2 };

interface Owner {
  label: string;
  /** Config path, e.g. `root.input`. */
  path: string;
  logger: Logger;
  metrics: MetricsScope;
}

export class ConnectionState {
  private isConnected = false;
  /** When `connected` last changed; built counts as the first change (GET /streams/{id} shows it). */
  private changedAt = Date.now();
  private lastError: string | undefined;
  private readonly upCount: Counter;
  private readonly failedCount: Counter;
  private readonly lostCount: Counter;

  constructor(
    private readonly owner: Owner,
    private readonly kind: 'input' | 'output',
  ) {
    this.upCount = owner.metrics.counter(`${kind}_connection_up`);
    this.failedCount = owner.metrics.counter(`${kind}_connection_failed`);
    this.lostCount = owner.metrics.counter(`${kind}_connection_lost`);
  }

  get connected(): boolean {
    return this.isConnected;
  }

  set connected(value: boolean) {
    this.isConnected = value;
    this.changedAt = Date.now();
  }

  /** The backoff of one connect loop: a new loop starts from the shortest wait again. */
  static reconnectBackoff(): Backoff {
    return new Backoff(RECONNECT_BACKOFF);
  }

  up(): void {
    this.connected = true;
    this.lastError = undefined;
    this.upCount.inc();
    this.owner.logger.info(`${this.kind} connected`);
  }

  /** A connect attempt failed: counted and logged; returns how long to wait before the next. */
  failed(err: unknown, backoff: Backoff): number {
    this.lastError = errorMessage(err);
    this.failedCount.inc();
    const wait = backoff.next() ?? RECONNECT_BACKOFF.maxMs;
    this.owner.logger.error(`failed to connect ${this.kind}, retrying in ${wait}ms: ${this.lastError}`);
    return wait;
  }

  /** The connection dropped; `logPrefix` starts the warning logged (the wrappers word it apart). */
  lost(message: string, logPrefix: string): void {
    this.connected = false;
    this.lastError = message;
    this.lostCount.inc();
    this.owner.logger.warn(`${logPrefix}: ${message}`);
  }

  statuses(): ConnectionStatus[] {
    const status: ConnectionStatus = {
      label: this.owner.label,
      path: this.owner.path.replace(/^root\./, ''),
      connected: this.connected,
      since: this.changedAt,
    };
    if (!this.connected && this.lastError) status.error = this.lastError;
    return [status];
  }
}
