// Starting a pipeline thread, and starting one early: a thread needs ~0.1 s to boot Node, load the
// bundle and the components, and on a busy 2-core machine (the main thread already running the
// pipeline, V8 optimising its code) twice that. Started while the main thread still reads its
// config, it boots on an idle core and is ready when the stream starts; the pool then hands it the
// processors (a `setup` message) instead of starting one.
import { existsSync } from 'node:fs';
import { isMainThread, Worker } from 'node:worker_threads';

/** Built at run time: scripts/bundle.mjs refuses the bundle if its text holds a dynamic import of a package it does not know. */
const DYNAMIC_IMPORT = String.fromCharCode(105) + 'mport';

/** A spare thread nobody took is stopped after this long (it only holds memory by then). */
const SPARE_LIFETIME_MS = 10_000;

/**
 * What a pipeline thread runs: from the bundled CLI, bin/nekton itself (its code cache makes a
 * thread start in a fraction of the time the ~300 modules of dist/ take to load; src/cli/main.ts
 * sees the thread and runs service/pipeline_thread.ts); else that module itself (tsc output, or tsx
 * on src/).
 */
function workerEntry(): URL {
  const bundled = import.meta.url.endsWith('/dist/bundle/nekton.cjs');
  const candidates = bundled
    ? ['../../bin/nekton', '../service/pipeline_thread.js']
    : ['../../service/pipeline_thread.js', '../../service/pipeline_thread.ts'];
  for (const rel of candidates) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return url;
  }
  throw new Error('the pipeline thread script (service/pipeline_thread.js) is missing: run `npm run build`');
}

/** A new pipeline thread; it waits for a `setup` message before building anything. */
export function startThreadWorker(): Worker {
  const entry = workerEntry();
  const workerData = { pipelineThread: true };
  // Running from src/ (tests): the thread registers the TypeScript loader first.
  return entry.pathname.endsWith('.ts')
    ? new Worker(
        `const load = (m) => ${DYNAMIC_IMPORT}(m); load('tsx/esm/api').then((tsx) => { tsx.register(); return load(${JSON.stringify(entry.href)}); })`,
        { eval: true, workerData },
      )
    : new Worker(entry, { workerData });
}

interface Spare {
  worker: Worker;
  timer: NodeJS.Timeout;
  gone(): void;
}

let spare: Spare | null = null;

/**
 * Starts one pipeline thread ahead of the stream that may want it. It does not keep the process
 * alive; one that dies, or that nobody takes within SPARE_LIFETIME_MS, is simply gone.
 */
export function prestartPipelineThread(): Worker | null {
  if (spare || !isMainThread) return null;
  let worker: Worker;
  try {
    worker = startThreadWorker();
  } catch {
    return null; // The pool will say why when it starts a thread itself.
  }
  worker.unref();
  const gone = () => {
    if (spare?.worker !== worker) return;
    clearTimeout(spare.timer);
    spare = null;
  };
  const timer = setTimeout(() => {
    gone();
    void worker.terminate();
  }, SPARE_LIFETIME_MS);
  timer.unref();
  worker.on('error', gone);
  worker.on('exit', gone);
  spare = { worker, timer, gone };
  return worker;
}

/** Whether a thread started ahead waits to be taken. */
export function spareThreadWaiting(): boolean {
  return spare !== null;
}

/** The thread prestartPipelineThread started, if it is still there: the caller owns it now. */
export function takeSpareThread(): Worker | null {
  const taken = spare;
  if (!taken) return null;
  spare = null;
  clearTimeout(taken.timer);
  taken.worker.off('error', taken.gone);
  taken.worker.off('exit', taken.gone);
  taken.worker.ref();
  return taken.worker;
}

/**
 * `NEKTON_PIPELINE_WORKERS`: `0`/`false` keeps `pipeline.threads` on the main thread (its async
 * workers); `1`/`true` uses worker threads even for processors with nothing to spread (a `noop`);
 * unset, startPool decides.
 */
export function pipelineWorkersSetting(env: NodeJS.ProcessEnv = process.env): 'off' | 'on' | 'auto' {
  const value = env.NEKTON_PIPELINE_WORKERS?.toLowerCase();
  if (value === '0' || value === 'false') return 'off';
  if (value === '1' || value === 'true') return 'on';
  return 'auto';
}

/** Stops the spare thread nobody will take (the stream keeps its processors on the main thread). */
export function dropSpareThread(): void {
  const dropped = takeSpareThread();
  if (!dropped) return;
  // An error it throws while stopping has nobody to tell: it must not reach the process.
  dropped.on('error', () => undefined);
  void dropped.terminate();
}
