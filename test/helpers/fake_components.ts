// Fault-injecting components for engine tests: an input that records every ack, an output that
// can fail or hang on chosen writes, and a processor that throws on chosen messages.
import type { ComponentSpec } from '../../src/config/spec.js';
import type { InputReader, OutputWriter, Processor, Transaction } from '../../src/engine/component.js';
import type { ComponentConfig } from '../../src/engine/context.js';
import type { StreamComponents } from '../../src/engine/stream.js';
import { type Batch, Message } from '../../src/message/message.js';

export interface AckRecord {
  payload: string;
  error: string | null;
}

/** Shared between a test and the components it configures (keyed by a name in the config). */
export class FakeWorld {
  readonly acks: AckRecord[] = [];
  readonly written: string[] = [];
  /** Written messages that carried an error flag (a processor failed on them), with its text. */
  readonly flagged: Array<{ payload: string; error: string }> = [];
  readonly writeAttempts: string[][] = [];
  /** Decides per write attempt (1-based count) whether it fails. */
  failWrite: (attempt: number, batch: Batch) => boolean = () => false;
  /** When set, reads of message `readGateFrom` onwards wait for this promise (an idle source). */
  readGate: Promise<void> | null = null;
  readGateFrom = 0;
  /** When set, writes wait for this promise before completing. */
  writeGate: Promise<void> | null = null;
  throwOn: (payload: string) => boolean = () => false;
  /** Messages the fake filter processor deletes. */
  dropOn: (payload: string) => boolean = () => false;
  closedOutputs = 0;
  /** Calls of the output's writeGroup (only offered with `grouped`). */
  groupWrites = 0;
  /** Calls of the input's group ack (only offered with `grouped`). */
  groupAcks = 0;
  closedInputs = 0;
}

interface FakeInputConfig {
  messages: string[];
  batch_size: number;
  auto_replay_nacks: boolean;
  /** Offer every message as already buffered, several at once (the engine's group path). */
  grouped: boolean;
}

export function fakeSpecs(world: FakeWorld): ComponentSpec[] {
  const input: ComponentSpec<FakeInputConfig> = {
    name: 'fake_input',
    kind: 'input',
    status: 'stable',
    summary: 'test input',
    fields: [],
    build(config, ctx) {
      let next = 0;
      const reader: InputReader = {
        connect: async () => undefined,
        read: async (): Promise<Transaction | null> => {
          if (world.readGate && next >= world.readGateFrom) await world.readGate;
          if (next >= config.messages.length) return null;
          const slice = config.messages.slice(next, next + (config.batch_size || 1));
          next += slice.length;
          const batch = slice.map((m) => new Message(m));
          return {
            batch,
            ack: async (err) => {
              for (const m of slice) world.acks.push({ payload: m, error: err ? err.message : null });
            },
          };
        },
        close: async () => {
          world.closedInputs++;
        },
      };
      if (config.grouped) {
        const groupAck = async (err: Error | null, batches: readonly Batch[]) => {
          world.groupAcks++;
          for (const batch of batches)
            for (const m of batch) world.acks.push({ payload: m.text(), error: err ? err.message : null });
        };
        reader.readBufferedGroup = (max) => {
          if (config.messages.length - next < 2) return undefined;
          const batches: Batch[] = [];
          while (batches.length < max && next < config.messages.length)
            batches.push([new Message(config.messages[next++]!)]);
          return { batches, ack: groupAck };
        };
      }
      return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
    },
  };
  const output: ComponentSpec<{ max_in_flight: number; batch_count: number; grouped: boolean }> = {
    name: 'fake_output',
    kind: 'output',
    status: 'stable',
    summary: 'test output',
    fields: [],
    build(config, ctx) {
      let attempts = 0;
      const writer: OutputWriter = {
        connect: async () => undefined,
        write: async (batch) => {
          attempts++;
          const payloads = batch.map((m) => m.text());
          world.writeAttempts.push(payloads);
          if (world.writeGate) await world.writeGate;
          if (world.failWrite(attempts, batch)) throw new Error(`write ${attempts} failed`);
          world.written.push(...payloads);
          for (const m of batch)
            if (m.error) world.flagged.push({ payload: m.text(), error: m.error.message });
        },
        close: async () => {
          world.closedOutputs++;
        },
      };
      if (config.grouped) {
        writer.writeGroup = async (batches) => {
          attempts++;
          const payloads = batches.flatMap((b) => b.map((m) => m.text()));
          world.writeAttempts.push(payloads);
          world.groupWrites++;
          if (world.writeGate) await world.writeGate;
          if (world.failWrite(attempts, batches.flat())) throw new Error(`write ${attempts} failed`);
          world.written.push(...payloads);
          for (const b of batches)
            for (const m of b) if (m.error) world.flagged.push({ payload: m.text(), error: m.error.message });
        };
      }
      const batching = config.batch_count
        ? { count: config.batch_count, byte_size: 0, period: '', check: '', processors: [] }
        : undefined;
      return ctx.wrapWriter(writer, { maxInFlight: config.max_in_flight || 1, batching });
    },
  };
  const processor: ComponentSpec<Record<string, never>> = {
    name: 'fake_thrower',
    kind: 'processor',
    status: 'stable',
    summary: 'throws on chosen messages',
    fields: [],
    build(): Processor {
      return {
        process(batch) {
          for (const m of batch) if (world.throwOn(m.text())) throw new Error(`refused ${m.text()}`);
          return [batch];
        },
        close: async () => undefined,
      };
    },
  };
  const filter: ComponentSpec<Record<string, never>> = {
    name: 'fake_filter',
    kind: 'processor',
    status: 'stable',
    summary: 'deletes chosen messages',
    fields: [],
    build(): Processor {
      return {
        process(batch) {
          const kept = batch.filter((m) => !world.dropOn(m.text()));
          return kept.length === 0 ? [] : [kept];
        },
        close: async () => undefined,
      };
    },
  };
  return [input, output, processor, filter] as ComponentSpec[];
}

function component(type: string, path: string, config: unknown): ComponentConfig {
  return { type, label: '', config, processors: [], path, raw: config };
}

export function fakeStream(options: {
  messages: string[];
  batchSize?: number;
  autoReplayNacks?: boolean;
  maxInFlight?: number;
  batchCount?: number;
  processors?: ComponentConfig[];
  threads?: number;
  /** The input buffers groups of messages and the output writes groups (the engine's fast path). */
  grouped?: boolean;
  /** Whether the output writes groups, when it differs from `grouped`. */
  groupedOutput?: boolean;
}): StreamComponents {
  return {
    input: component('fake_input', 'root.input', {
      messages: options.messages,
      batch_size: options.batchSize ?? 1,
      auto_replay_nacks: options.autoReplayNacks ?? false,
      grouped: options.grouped ?? false,
    }),
    buffer: null,
    pipeline: { threads: options.threads ?? 1, processors: options.processors ?? [] },
    output: component('fake_output', 'root.output', {
      max_in_flight: options.maxInFlight ?? 1,
      batch_count: options.batchCount ?? 0,
      grouped: options.groupedOutput ?? options.grouped ?? false,
    }),
  };
}

export function throwerProcessor(): ComponentConfig {
  return component('fake_thrower', 'root.pipeline.processors.0', {});
}

export function filterProcessor(): ComponentConfig {
  return component('fake_filter', 'root.pipeline.processors.0', {});
}
