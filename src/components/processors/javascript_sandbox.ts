// Where a `javascript` processor's program runs: a worker thread (its own V8 isolate and heap, so
// a runaway program is stopped by terminating the worker, whatever it is doing, and its memory is
// capped), and inside it a fresh V8 context (node:vm) holding only the language's built-ins, the
// reference's `benthos` API and a console. Nothing of the host is reachable from the program: the
// API is written inside the context and reaches out through one captured bridge that takes and
// returns only strings, numbers and booleans (a host object or function handed in would lead back
// to the worker's Function constructor, and from there to `process` and `require`).
import { Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './javascript_worker.js';

/** One message as the worker gets it: its text and its metadata as JSON texts. */
export interface SandboxMessage {
  text: string;
  meta: Array<[string, string]>;
}

/** What a run changed: new content (a string, or JSON text for a structured value) and metadata. */
export interface SandboxResult {
  content: { kind: 'string' | 'json'; value: string } | null;
  meta: Array<[string, string]>;
}

export interface SandboxOptions {
  /** How long one run may take before the worker is stopped. */
  runLimitMs: number;
  /** Heap cap of the worker, in MiB. */
  memoryMb: number;
  /** Folders `require` looks in for modules not found elsewhere. */
  globalFolders: string[];
  log(level: 'info' | 'warn' | 'error' | 'debug', text: string): void;
}

type WorkerReply =
  | { type: 'ready' }
  | { type: 'log'; level: string; text: string }
  | { type: 'error'; error: string }
  | { type: 'result'; content: SandboxResult['content']; meta: Array<[string, string]> }
  | { type: 'done' };

/** How long a worker may take to start (not counted in a run's limit). */
const START_LIMIT_MS = 30_000;

export class Sandbox {
  private worker: Worker | null = null;
  private ready: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly code: string,
    private readonly filename: string,
    private readonly options: SandboxOptions,
  ) {}

  /** Runs the program once per message, in order; rejects on the first failure (timeouts included). */
  run(messages: SandboxMessage[]): Promise<SandboxResult[]> {
    const next = this.queue.then(() => this.runNow(messages));
    this.queue = next.catch(() => {});
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.stop();
  }

  private start(): Worker {
    if (this.closed) throw new Error('the javascript processor is closed');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { code: this.code, filename: this.filename, globalFolders: this.options.globalFolders },
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      stdout: false,
      stderr: false,
    });
    // An idle worker must not keep the process alive.
    worker.unref();
    // Between runs nothing else listens: a late failure (say, a FinalizationRegistry callback
    // that throws) must not become an unhandled 'error' event of the host.
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error('the javascript worker did not start in time')),
        START_LIMIT_MS,
      );
      const onMessage = (m: WorkerReply) => {
        if (m.type === 'ready') done();
      };
      const onError = (err: Error) => done(new Error(`javascript program failed: ${err.message}`));
      const onExit = (code: number) =>
        done(new Error(`javascript program stopped (worker exit code ${code})`));
      const done = (err?: Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (err) {
          if (this.worker === worker) this.worker = null;
          void worker.terminate();
          reject(err);
        } else resolve();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return worker;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private async runNow(messages: SandboxMessage[]): Promise<SandboxResult[]> {
    const worker = this.worker ?? this.start();
    await this.ready;
    const { runLimitMs, log } = this.options;
    return new Promise<SandboxResult[]>((resolve, reject) => {
      const results: SandboxResult[] = [];
      let timer: NodeJS.Timeout;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          finish();
          void this.stop();
          reject(new Error(`javascript execution timed out after ${runLimitMs}ms and was stopped`));
        }, runLimitMs);
      };
      const finish = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (reply: WorkerReply) => {
        switch (reply.type) {
          case 'ready':
            return;
          case 'log':
            try {
              log(reply.level as 'info', reply.text);
            } catch {
              // A logger failure must not take the process down from a worker event.
            }
            return;
          case 'result':
            results.push({ content: reply.content, meta: reply.meta });
            arm();
            return;
          case 'error':
            finish();
            reject(new Error(reply.error));
            return;
          case 'done':
            finish();
            resolve(results);
        }
      };
      const onError = (err: Error) => {
        finish();
        this.worker = null;
        reject(new Error(`javascript program failed: ${err.message}`));
      };
      const onExit = (code: number) => {
        finish();
        this.worker = null;
        reject(new Error(`javascript program stopped (worker exit code ${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      arm();
      worker.postMessage(messages);
    });
  }
}
