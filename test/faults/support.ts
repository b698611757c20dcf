// Fault-injecting components for delivery tests: a durable queue that redelivers whatever was not
// acknowledged when a new session opens (like a broker after a consumer reconnects), and an output
// whose writes can fail, drop the connection, or take a fixed time.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { registry as builtins } from '../../src/components/registry.js';
import type { ComponentSpec } from '../../src/config/spec.js';
import { ComponentBuilder, type EngineEnv } from '../../src/engine/builder.js';
import type { InputReader, OutputWriter, Transaction } from '../../src/engine/component.js';
import type { ComponentConfig } from '../../src/engine/context.js';
import { NotConnectedError } from '../../src/engine/errors.js';
import { MemoryInprocBus } from '../../src/engine/inproc.js';
import { noopMetrics } from '../../src/engine/noop_metrics.js';
import { Registry } from '../../src/engine/registry.js';
import { ResourceManager } from '../../src/engine/resources.js';
import { Stream, type StreamComponents } from '../../src/engine/stream.js';
import { Message } from '../../src/message/message.js';

/** A deterministic PRNG (mulberry32) so every randomised test can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of a test run: `FAULT_SEED` (to replay a failure) or a fixed default. */
export function seedFromEnv(fallback: number): number {
  const text = process.env.FAULT_SEED;
  return text ? Number(text) : fallback;
}

/** A positive integer from the environment (soak runs raise the counts), else the default. */
export function countFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

type State = 'ready' | 'in_flight' | 'nacked' | 'acked';

/**
 * An at-least-once source: each session (connect) first redelivers every message that was not
 * acknowledged, nacked or in flight when the previous session closed. Within a session a nacked
 * message waits for the next session, as with a broker that redelivers on reconnect.
 */
export class DurableQueue {
  readonly states = new Map<string, State>();
  /** Every delivery, in order, across sessions. */
  readonly deliveries: string[] = [];
  /** Payloads acked successfully. */
  readonly acked: string[] = [];
  /** Reader errors to inject: the n-th read (1-based, across sessions) throws NotConnectedError. */
  dropConnectionOn: (read: number) => boolean = () => false;
  private reads = 0;
  sessions = 0;

  constructor(payloads: string[]) {
    for (const p of payloads) this.states.set(p, 'ready');
  }

  pending(): string[] {
    return [...this.states].filter(([, s]) => s !== 'acked').map(([p]) => p);
  }

  reader(batchSize: number): InputReader {
    let queue: string[] = [];
    return {
      connect: async () => {
        this.sessions++;
        queue = [];
        for (const [p, s] of this.states) {
          if (s === 'acked') continue;
          this.states.set(p, 'ready');
          queue.push(p);
        }
      },
      read: async (): Promise<Transaction | null> => {
        this.reads++;
        if (this.dropConnectionOn(this.reads)) {
          // The connection dropped: everything in flight comes back on the next session.
          throw new NotConnectedError(`injected disconnect on read ${this.reads}`);
        }
        const slice = queue.splice(0, batchSize);
        if (slice.length === 0) return null;
        for (const p of slice) {
          this.states.set(p, 'in_flight');
          this.deliveries.push(p);
        }
        return {
          batch: slice.map((p) => new Message(p)),
          ack: async (err) => {
            for (const p of slice) {
              if (this.states.get(p) === 'acked') continue;
              this.states.set(p, err ? 'nacked' : 'acked');
              if (!err) this.acked.push(p);
            }
          },
        };
      },
      close: async () => undefined,
    };
  }
}

/** What the fault output does; shared by the test and the output it configures. */
export class FaultyOutputScript {
  readonly written: string[] = [];
  attempts = 0;
  /** Fails the n-th write attempt (1-based) with an ordinary error: the batch is nacked. */
  rejectWhen: (attempt: number, payloads: string[]) => boolean = () => false;
  /** Fails the n-th attempt with NotConnectedError: the engine reconnects and retries it. */
  disconnectWhen: (attempt: number) => boolean = () => false;
  /** Milliseconds each write takes. */
  delayMs = 0;
  /** Writes of these payloads never settle (a hung downstream). */
  hangWhen: (payloads: string[]) => boolean = () => false;
  connects = 0;
}

/** A registry with `durable_queue` (input) and `faulty_output` bound to the given script objects. */
export function faultRegistry(queue: DurableQueue | null, script: FaultyOutputScript): Registry {
  const input: ComponentSpec<{ batch_size: number; auto_replay_nacks: boolean }> = {
    name: 'durable_queue',
    kind: 'input',
    status: 'stable',
    summary: 'test double: a durable queue',
    fields: [],
    build(config, ctx) {
      if (!queue) throw new Error('no queue bound');
      return ctx.wrapReader(queue.reader(config.batch_size || 1), {
        autoReplayNacks: config.auto_replay_nacks,
      });
    },
  };
  const output: ComponentSpec<{ max_in_flight: number; batch_count: number }> = {
    name: 'faulty_output',
    kind: 'output',
    status: 'stable',
    summary: 'test double: an output with injected faults',
    fields: [],
    build(config, ctx) {
      const writer: OutputWriter = {
        connect: async () => {
          script.connects++;
        },
        write: async (batch) => {
          const attempt = ++script.attempts;
          const payloads = batch.map((m) => m.text());
          if (script.hangWhen(payloads)) await new Promise<void>(() => undefined);
          if (script.delayMs > 0) await new Promise((r) => setTimeout(r, script.delayMs));
          if (script.disconnectWhen(attempt)) throw new NotConnectedError(`injected disconnect ${attempt}`);
          if (script.rejectWhen(attempt, payloads)) throw new Error(`injected rejection ${attempt}`);
          for (const p of payloads) script.written.push(p);
        },
        close: async () => undefined,
      };
      const batching = config.batch_count
        ? { count: config.batch_count, byte_size: 0, period: '', check: '', processors: [] }
        : undefined;
      return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight || 1, batching });
    },
  };
  return new Registry([...builtins.list(), input, output] as ComponentSpec[]);
}

export function component(type: string, path: string, config: unknown): ComponentConfig {
  return { type, label: '', config, processors: [], path, raw: config };
}

export interface FaultStreamOptions {
  batchSize?: number;
  autoReplayNacks?: boolean;
  maxInFlight?: number;
  batchCount?: number;
  threads?: number;
  buffer?: ComponentConfig | null;
  input?: ComponentConfig;
}

/** Builds a stream durable_queue → (buffer) → faulty_output on a fresh engine env. */
export async function faultStream(registry: Registry, options: FaultStreamOptions = {}): Promise<Stream> {
  const abort = new AbortController();
  const env: EngineEnv = {
    registry,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    metrics: noopMetrics,
    resources: new ResourceManager(),
    inproc: new MemoryInprocBus(),
    signal: abort.signal,
  };
  const components: StreamComponents = {
    input:
      options.input ??
      component('durable_queue', 'root.input', {
        batch_size: options.batchSize ?? 1,
        auto_replay_nacks: options.autoReplayNacks ?? false,
      }),
    buffer: options.buffer ?? null,
    pipeline: { threads: options.threads ?? 1, processors: [] },
    output: component('faulty_output', 'root.output', {
      max_in_flight: options.maxInFlight ?? 1,
      batch_count: options.batchCount ?? 0,
    }),
  };
  return Stream.build(components, new ComponentBuilder(env), env.logger, abort);
}

export const letters = (n: number): string[] => Array.from({ length: n }, (_, i) => `m${i}`);

/** global.gc, enabled at run time (the test runner does not pass --expose-gc). */
export function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
