// `pipeline.threads` on worker threads: each thread builds the pipeline's processors from the same
// configs, and groups of batches cross as transferred buffers (wire.ts), one message each way per
// group. Inputs, outputs and acks stay on the main thread. A thread that crashes fails the groups
// it held (the stream nacks them, so they are delivered again) and is started anew.
import type { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Batch } from '../../message/message.js';
import type { MetricsProvider } from '../builder.js';
import type { ComponentConfig } from '../context.js';
import { MetricsForwarder } from './forwarded_metrics.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';
import { startThreadWorker, takeSpareThread } from './spare_thread.js';
import { type Outcome, type Packet, readOutcomes, writeGroup } from './wire.js';

/**
 * Processors that may run on a pipeline thread: they need nothing but their config (no resource,
 * connection, shared state or request of the main thread). Anything else, nested anywhere in the
 * pipeline, keeps the whole pipeline on the main thread.
 */
export const CROSSING_PROCESSORS: ReadonlySet<string> = new Set([
  'archive',
  'avro',
  'bloblang',
  'bounds_check',
  'branch',
  'catch',
  'compress',
  'decompress',
  'for_each',
  'group_by_value',
  'insert_part',
  'log',
  'mapping',
  'msgpack',
  'mutation',
  'noop',
  'parallel',
  'protobuf',
  'select_parts',
  'sleep',
  'split',
  'switch',
  'try',
  'unarchive',
  'while',
  'xml',
]);

/** Why these processors cannot run on pipeline threads, or null when they can. */
export function staysOnMain(processors: readonly ComponentConfig[]): string | null {
  for (const cc of processors) {
    const found = firstNotCrossing(cc);
    if (found) return `processor ${found.type} at ${found.path} needs the main thread`;
  }
  return null;
}

function firstNotCrossing(cc: ComponentConfig): ComponentConfig | null {
  if (!CROSSING_PROCESSORS.has(cc.type)) return cc;
  for (const nested of nestedComponents(cc.config)) {
    const found = firstNotCrossing(nested);
    if (found) return found;
  }
  return null;
}

/** Component configs nested in a component's settings (a switch's cases, a branch's processors...). */
function* nestedComponents(value: unknown): Generator<ComponentConfig> {
  if (Array.isArray(value)) {
    for (const v of value) yield* nestedComponents(v);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const o = value as Record<string, unknown>;
  if (typeof o.type === 'string' && typeof o.path === 'string' && Array.isArray(o.processors)) {
    yield o as unknown as ComponentConfig;
    return;
  }
  for (const v of Object.values(o)) yield* nestedComponents(v);
}

/**
 * Processors with no per-message work worth a thread: a pipeline made only of these (nested ones
 * included) stays on the main thread, where a `noop` file copy costs 0.8x the CPU it costs with
 * threads. Anything else (a mapping, a codec, a compression...) is work to spread.
 */
const LIGHT = new Set([
  'bounds_check',
  'catch',
  'for_each',
  'insert_part',
  'log',
  'noop',
  'parallel',
  'select_parts',
  'sleep',
  'split',
  'try',
]);

/** Whether some processor, nested ones included, does per-message work a thread can take. */
export function spreadsWork(processors: readonly ComponentConfig[]): boolean {
  const heavy = (cc: ComponentConfig): boolean => {
    if (!LIGHT.has(cc.type)) return true;
    for (const nested of nestedComponents(cc.config)) if (heavy(nested)) return true;
    return false;
  };
  return processors.some(heavy);
}

/** Pipeline threads running in this process, across every stream. */
let threadsInUse = 0;
/** Pools that got fewer threads than they wanted, oldest first: they take cores given back. */
const waitingForCores: ThreadPool[] = [];

/**
 * How many of `wanted` pipeline threads a stream may start: all streams of a process share
 * cores - 1 of them (the main thread is a pipeline too), so a streams-mode process running a
 * thousand configs that say `threads: -1` does not start a thousand threads per core. Given back
 * with releaseThreads().
 */
export function reserveThreads(wanted: number, cores: number): number {
  const granted = Math.max(0, Math.min(wanted, cores - 1 - threadsInUse));
  threadsInUse += granted;
  return granted;
}

/** Gives threads back; pools still short of threads take them, oldest first. */
export function releaseThreads(count: number): void {
  threadsInUse = Math.max(0, threadsInUse - count);
  for (const pool of [...waitingForCores]) pool.takeFreedCores();
}

/** One per core when the config says -1 or 0, as the reference reads it. */
export function threadCount(configured: number, cores: number): number {
  return configured > 0 ? configured : cores;
}

interface Waiting {
  resolve(answer: Packet): void;
  reject(err: Error): void;
}

class Thread {
  ready = false;
  readonly inFlight = new Map<number, Waiting>();

  constructor(readonly worker: Worker) {}
}

const MAX_RESTART_DELAY_MS = 5_000;
/**
 * Groups a thread holds at once: one it runs, the next ones waiting in its queue. Four keep a thread
 * busy while the main thread runs a group of its own (with two, W2t's thread sat idle ~18% of the time).
 */
export const IN_FLIGHT = 4;
export class ThreadPool {
  private readonly threads = new Set<Thread>();
  private readonly queued: Array<{ batches: readonly Batch[]; waiting: Waiting }> = [];
  private nextId = 0;
  /** Groups the threads answered (done or failed). */
  answered = 0;
  /** Threads this pool took from those started while the config was read (spare_thread.ts). */
  startedAhead = 0;
  private closing = false;
  private crashesInARow = 0;
  private restartTimer: NodeJS.Timeout | null = null;

  private readonly forwarder: MetricsForwarder;
  /** Threads of the process's budget this pool holds (started, starting or restarting). */
  private reserved = 0;
  /** Set after the first call of takeFreedCores (later ones take cores given back). */
  private launched = false;
  private readonly spawned: Promise<void>[] = [];

  private constructor(
    private readonly setup: WorkerSetup,
    private readonly logger: Logger,
    metrics: MetricsProvider,
    /** Threads the config asks for beside the main thread (never more than the spare cores). */
    readonly wanted: number,
    private readonly cores: number,
    private readonly onRefused: (err: Error) => void,
  ) {
    this.forwarder = new MetricsForwarder(metrics);
  }

  /**
   * Starts as many of `wanted` threads as the process has spare cores for, without waiting for
   * them: until one is ready, hasRoom() is false and the stream runs every group on the main
   * thread. The rest start when other streams give cores back (a stream replaced by a new config
   * holds them until it stops). A thread that cannot build the processors stops them all (the
   * pipeline stays on the main thread), with `onRefused` told why.
   */
  static launch(
    setup: WorkerSetup,
    wanted: number,
    cores: number,
    logger: Logger,
    metrics: MetricsProvider,
    onRefused: (err: Error) => void,
  ): ThreadPool {
    const pool = new ThreadPool(setup, logger, metrics, wanted, cores, onRefused);
    pool.takeFreedCores();
    return pool;
  }

  /** Starts threads for the spare cores the process has now, up to `wanted`; waits for the rest. */
  takeFreedCores(): void {
    if (this.closing) return;
    const granted = reserveThreads(this.wanted - this.reserved, this.cores);
    this.reserved += granted;
    for (let i = 0; i < granted; i++) {
      this.spawned.push(
        this.spawn().catch((err: unknown) => {
          if (this.closing) return;
          this.onRefused(err instanceof Error ? err : new Error(String(err)));
          return this.close();
        }),
      );
    }
    if (granted > 0) {
      this.started = Promise.all(this.spawned).then(() => undefined);
      if (this.launched)
        this.logger.info(`pipeline threads: a core was given back, ${this.reserved} worker thread(s) now`);
    }
    this.launched = true;
    const at = waitingForCores.indexOf(this);
    if (this.reserved < this.wanted) {
      if (at < 0) waitingForCores.push(this);
    } else if (at >= 0) waitingForCores.splice(at, 1);
  }

  /** Settles once every thread launched with the pool is ready, or the pool gave them up. */
  started: Promise<void> = Promise.resolve();

  get size(): number {
    return this.threads.size;
  }

  /** What the pipeline made of each batch (in the same order), on the least busy thread. */
  run(batches: readonly Batch[]): Promise<Outcome[]> {
    if (this.closing) return Promise.reject(new Error('the pipeline threads are stopped'));
    const answered = new Promise<Packet>((resolve, reject) => {
      const waiting = { resolve, reject };
      const thread = this.leastBusy();
      if (thread) this.send(thread, batches, waiting);
      else this.queued.push({ batches, waiting });
    });
    // The answer is decoded in a reaction, not in the 'message' handler that settles `answered`:
    // decoded there (and carried by `answered`), its messages outlived two scavenges and went to
    // the old generation, 31-62 MB per 900k docs on the main thread against ~10 MB this way, and
    // the main thread's scavenges took twice as long (measured with --trace-gc-nvp; why the
    // handler's way kept them is not known).
    return answered.then(readOutcomes);
  }

  /** Whether a ready thread has fewer than IN_FLIGHT groups: else the main thread runs the next itself. */
  hasRoom(): boolean {
    for (const t of this.threads) if (t.ready && t.inFlight.size < IN_FLIGHT) return true;
    return false;
  }

  /** For tests: makes one ready thread throw an exception nothing catches. */
  crashOne(): void {
    const thread = [...this.threads].find((t) => t.ready);
    thread?.worker.postMessage({ kind: 'crash' } satisfies ToWorker);
  }

  /** Stops every thread; groups still on them fail (the stream nacks them). */
  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private closed: Promise<void> | undefined;

  private async shutDown(): Promise<void> {
    this.closing = true;
    const at = waitingForCores.indexOf(this);
    if (at >= 0) waitingForCores.splice(at, 1);
    const held = this.reserved;
    this.reserved = 0;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const stopped = new Error('the pipeline threads were stopped');
    for (const q of this.queued.splice(0)) q.waiting.reject(stopped);
    const threads = [...this.threads];
    this.threads.clear();
    for (const t of threads) this.failAll(t, stopped);
    await Promise.all(threads.map((t) => t.worker.terminate()));
    // Given back once they are gone: a stream waiting for a core starts its thread now.
    releaseThreads(held);
  }

  private leastBusy(): Thread | undefined {
    let best: Thread | undefined;
    for (const t of this.threads) if (t.ready && (!best || t.inFlight.size < best.inFlight.size)) best = t;
    return best;
  }

  private send(thread: Thread, batches: readonly Batch[], waiting: Waiting): void {
    let encoded: ReturnType<typeof writeGroup>;
    try {
      encoded = writeGroup(batches);
    } catch (err) {
      waiting.reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const id = this.nextId++;
    thread.inFlight.set(id, waiting);
    try {
      thread.worker.postMessage(
        { kind: 'run', id, packet: encoded.packet } satisfies ToWorker,
        encoded.transfer,
      );
    } catch (err) {
      thread.inFlight.delete(id);
      waiting.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      // The thread started ahead of the stream (spare_thread.ts), else a new one.
      const spare = takeSpareThread();
      if (spare) this.startedAhead++;
      const worker = spare ?? startThreadWorker();
      worker.postMessage({ kind: 'setup', setup: this.setup } satisfies ToWorker);
      const thread = new Thread(worker);
      this.threads.add(thread);
      let settled = false;
      worker.on('message', (msg: FromWorker) => {
        switch (msg.kind) {
          case 'ready':
            thread.ready = true;
            settled = true;
            resolve();
            this.drainQueue();
            return;
          case 'failed':
            settled = true;
            this.threads.delete(thread);
            void worker.terminate();
            reject(new Error(`a pipeline thread could not build the processors: ${msg.error}`));
            return;
          case 'log':
            this.relog(msg.line);
            return;
          case 'done': {
            this.answered++;
            if (msg.metrics) this.forwarder.apply(msg.metrics);
            const waiting = thread.inFlight.get(msg.id);
            thread.inFlight.delete(msg.id);
            this.crashesInARow = 0;
            waiting?.resolve(msg.packet);
            return;
          }
          case 'error': {
            this.answered++;
            if (msg.metrics) this.forwarder.apply(msg.metrics);
            const waiting = thread.inFlight.get(msg.id);
            thread.inFlight.delete(msg.id);
            waiting?.reject(new Error(msg.error));
            return;
          }
        }
      });
      const lost = (why: string) => {
        const starting = !settled;
        if (starting) {
          // Also when close() already let it go: whoever waits for the start must hear.
          settled = true;
          reject(new Error(`a pipeline thread stopped while starting: ${why}`));
        }
        if (!this.threads.delete(thread)) return;
        this.failAll(thread, new Error(`pipeline thread stopped: ${why}`));
        if (starting || this.closing) return;
        this.logger.error(`pipeline thread stopped (${why}): its messages are nacked, starting a new one`);
        this.restartLater();
      };
      worker.on('error', (err) => lost(err.message));
      worker.on('exit', (code) => lost(`exit code ${code}`));
    });
  }

  /** A thread's log line, written by the stream's logger (its level was applied on the thread). */
  private relog(line: string): void {
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = entry;
    const name = typeof level === 'number' ? this.logger.levels.labels[level] : undefined;
    if (!name) return;
    // Fields the stream's logger already carries (its stream id) are not written twice.
    const own = this.logger.bindings();
    for (const key of Object.keys(fields)) if (own[key] === fields[key]) delete fields[key];
    const write = (this.logger as unknown as Record<string, (o: object, m?: string) => void>)[name];
    write?.call(this.logger, fields, typeof msg === 'string' ? msg : undefined);
  }

  /** A new thread in place of one that crashed; crashes in a row wait longer each time. */
  private restartLater(): void {
    const delay =
      this.crashesInARow === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 100 * 2 ** this.crashesInARow);
    this.crashesInARow++;
    const timer = setTimeout(() => {
      this.restartTimer = null;
      if (this.closing) return;
      this.spawn().catch((err: unknown) => {
        this.logger.error(
          `restarting a pipeline thread: ${err instanceof Error ? err.message : String(err)}`,
        );
        if (!this.closing) this.restartLater();
      });
    }, delay);
    this.restartTimer = timer;
  }

  private drainQueue(): void {
    while (this.queued.length > 0) {
      const thread = this.leastBusy();
      if (!thread) return;
      const q = this.queued.shift()!;
      this.send(thread, q.batches, q.waiting);
    }
  }

  private failAll(thread: Thread, err: Error): void {
    for (const w of thread.inFlight.values()) w.reject(err);
    thread.inFlight.clear();
  }
}
