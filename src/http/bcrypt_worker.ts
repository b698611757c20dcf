// bcrypt comparisons on a worker thread: bcryptjs is pure JavaScript, and even its async API
// runs ~100 ms slices on the event loop, so a flood of wrong passwords delayed every request.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

// Plain CommonJS for an `eval` worker: the bundled CLI has no worker file of its own to point at.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptPath);
parentPort.on('message', ({ id, password, hash }) => {
  let ok = false;
  try { ok = bcrypt.compareSync(password, hash); } catch {}
  parentPort.postMessage({ id, ok });
});
`;

interface Pending {
  resolve(ok: boolean): void;
  reject(err: Error): void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(err: Error): void {
  worker = undefined;
  for (const waiter of pending.values()) waiter.reject(err);
  pending.clear();
}

function bcryptWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { bcryptPath: require.resolve('bcryptjs') },
  });
  started.on('message', ({ id, ok }: { id: number; ok: boolean }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    waiter?.resolve(ok);
    // Idle, the worker must not keep a finished process alive.
    if (pending.size === 0) started.unref();
  });
  started.on('error', (err) => failAll(err));
  started.on('exit', () => failAll(new Error('the bcrypt worker exited')));
  worker = started;
  return started;
}

/** bcrypt.compare off the event loop; false for a hash bcrypt cannot read. */
export function compareBcrypt(password: string, hash: string): Promise<boolean> {
  const target = bcryptWorker();
  const id = nextId++;
  return new Promise<boolean>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    target.ref();
    target.postMessage({ id, password, hash });
  });
}
