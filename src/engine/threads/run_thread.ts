// A pipeline thread (started by pool.ts through service/pipeline_thread.ts, which hands it the
// built-in components): builds the stream's processors from their configs and runs each group of
// batches the main thread posts through them, posting back what each batch became. Acks, inputs
// and outputs stay on the main thread.
import { parentPort } from 'node:worker_threads';
import pino from 'pino';
import type { Message } from '../../message/message.js';
import { ComponentBuilder } from '../builder.js';
import type { Processor } from '../component.js';
import { asError } from '../errors.js';
import { MemoryInprocBus } from '../inproc.js';
import { runProcessors } from '../observed_processor.js';
import type { Registry } from '../registry.js';
import { ResourceManager } from '../resources.js';
import { RecordingMetrics } from './forwarded_metrics.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';
import { type Outcome, type OutcomeTexts, readGroup, structureText, writeOutcomes } from './wire.js';

async function build(
  registry: Registry,
  setup: WorkerSetup,
  abort: AbortController,
  metrics: RecordingMetrics,
  post: (msg: FromWorker) => void,
): Promise<Processor[]> {
  // Lines go to the main thread, which writes them with the stream's logger (its format, its file).
  const toMain = { write: (line: string) => post({ kind: 'log', line }) };
  const logger = pino({ level: setup.logLevel }, toMain);
  const builder = new ComponentBuilder({
    registry,
    logger,
    metrics,
    streamId: setup.streamId,
    resources: new ResourceManager(),
    inproc: new MemoryInprocBus(),
    signal: abort.signal,
    baseDir: setup.baseDir,
  });
  return builder.buildProcessors(setup.processors);
}

/** Each batch through the processors; the ones a processor answers asynchronously are awaited. */
async function runAll(
  processors: Processor[],
  batches: ReturnType<typeof readGroup>,
  content: boolean,
): Promise<{ outcomes: Outcome[]; texts: OutcomeTexts }> {
  const outcomes: Outcome[] = new Array(batches.length);
  const texts: OutcomeTexts = new Array(batches.length);
  for (let i = 0; i < batches.length; i++) {
    let made: Outcome;
    let madeTexts: Array<Array<string | null>> | null = null;
    try {
      const result = runProcessors(processors, batches[i]!);
      made = result instanceof Promise ? await result : result;
      if (content) madeTexts = made.map(contentOf);
    } catch (err) {
      made = asError(err);
    }
    outcomes[i] = made;
    texts[i] = madeTexts;
  }
  return { outcomes, texts };
}

/**
 * Each message's structured value as JSON text, or null: its bytes go (made here, so one that
 * cannot be serialised fails its batch, as a processor would).
 */
function contentOf(batch: Message[]): Array<string | null> {
  const out: Array<string | null> = new Array(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const msg = batch[i]!;
    const text = structureText(msg);
    if (text === null) msg.bytes();
    out[i] = text;
  }
  return out;
}

/**
 * Serves the main thread's groups on this thread, with processors built from `registry` once the
 * first message (`setup`) says which: the thread may start before the config is read.
 */
export function serveThread(registry: Registry): void {
  const port = parentPort!;
  const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
  const metrics = new RecordingMetrics();
  let setup: WorkerSetup | null = null;
  let processors: Processor[] = [];
  port.on('message', (msg: ToWorker) => {
    switch (msg.kind) {
      case 'setup':
        setup = msg.setup;
        build(registry, setup, new AbortController(), metrics, post).then(
          (built) => {
            processors = built;
            post({ kind: 'ready' });
          },
          (err: unknown) => post({ kind: 'failed', error: asError(err).message }),
        );
        return;
      case 'crash':
        // For tests: an exception nothing catches, as a bug in a processor would throw.
        setImmediate(() => {
          throw new Error('pipeline thread crashed on purpose');
        });
        return;
      case 'run': {
        // Only after 'ready': the main thread sends groups to ready threads only.
        const { id } = msg;
        const { contentBack } = setup!;
        runAll(processors, readGroup(msg.packet), contentBack)
          .then(({ outcomes, texts }) => {
            const { packet, transfer } = writeOutcomes(outcomes, texts, contentBack);
            post({ kind: 'done', id, packet, metrics: metrics.drain() }, transfer);
          })
          .catch((err: unknown) =>
            post({ kind: 'error', id, error: asError(err).message, metrics: metrics.drain() }),
          );
        return;
      }
    }
  });
}
