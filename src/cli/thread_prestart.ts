// Starts a pipeline thread while `nekton -c` still reads its config, when the config's text asks
// for threads: the thread then boots on an idle core instead of beside a stream already running
// (engine/threads/spare_thread.ts). A guess from the text, before the config is parsed: a wrong
// guess costs one thread that boots and is dropped, a missed one (`threads: ${THREADS}`) a thread
// started when the stream starts, as without this.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { pipelineWorkersSetting, prestartPipelineThread } from '../engine/threads/spare_thread.js';

/** `threads: 2` in YAML, `"threads": 2` in JSON; `pipeline.threads` is the only such field. */
const THREADS_FIELD = /(?:^|[\s{,])["']?threads["']?\s*:\s*["']?(-?\d+)/gm;
const THREADS_SET = /^pipeline\.threads=\s*(-?\d+)\s*$/;

/** Whether the config's text (and `-s` overrides) ask for more than one pipeline thread. */
export function asksForThreads(text: string, sets: readonly string[] = []): boolean {
  for (const set of sets) {
    const found = THREADS_SET.exec(set);
    if (found) return Number(found[1]) !== 1;
  }
  for (const found of text.matchAll(THREADS_FIELD)) if (Number(found[1]) !== 1) return true;
  return false;
}

export function prestartThreadsFor(file: string, sets: readonly string[]): void {
  if (availableParallelism() < 2 || pipelineWorkersSetting() === 'off') return;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return; // Loading the config says why.
  }
  if (asksForThreads(text, sets)) prestartPipelineThread();
}
