// Plugin components (plugin_shapes.ts) as the engine's components: inputs and outputs become
// readers and writers the engine wraps with reconnection, metrics and at-least-once acks.
import type {
  Cache,
  InputReader,
  OutputWriter,
  Processor,
  RateLimit,
  Transaction,
} from '../engine/component.js';
import type { BuildContext } from '../engine/context.js';
import { flagged, perMessage, processorErrorLog } from '../engine/processor_helpers.js';
import type { Batch } from '../message/message.js';
import { Message } from './message.js';
import type {
  PluginBatchProcessor,
  PluginCache,
  PluginContext,
  PluginInput,
  PluginOutput,
  PluginProcessor,
  PluginRateLimit,
  PluginRead,
} from './plugin_shapes.js';

const closeNothing = async () => {};

export function pluginContext(ctx: BuildContext): PluginContext {
  return { label: ctx.label, path: ctx.path, logger: ctx.logger, signal: ctx.signal };
}

export function inputReader(input: PluginInput): InputReader {
  return {
    connect: async () => input.connect?.(),
    read: async () => transaction(await input.read()),
    close: input.close?.bind(input) ?? closeNothing,
  };
}

function transaction(read: PluginRead): Transaction | null {
  if (read === null || read === undefined) return null;
  if (read instanceof Message) return { batch: [read.inner], ack: async () => {} };
  if (Array.isArray(read)) return { batch: read.map((m) => m.inner), ack: async () => {} };
  return { batch: read.messages.map((m) => m.inner), ack: async (err) => read.ack(err) };
}

export function outputWriter(output: PluginOutput): OutputWriter {
  return {
    connect: async () => output.connect?.(),
    write: (batch) => output.write(batch.map(Message.of)),
    close: output.close?.bind(output) ?? closeNothing,
  };
}

export function processor(plugin: PluginProcessor, ctx: BuildContext): Processor {
  return {
    process: perMessage(
      async (msg) => {
        const out = await plugin.process(Message.of(msg));
        if (out === null || out === undefined) return null;
        return Array.isArray(out) ? out.map((m) => m.inner) : out.inner;
      },
      { onError: processorErrorLog(ctx.logger) },
    ),
    close: plugin.close?.bind(plugin) ?? closeNothing,
  };
}

export function batchProcessor(plugin: PluginBatchProcessor, ctx: BuildContext): Processor {
  const log = processorErrorLog(ctx.logger);
  return {
    async process(batch: Batch): Promise<Batch[]> {
      try {
        const out = await plugin.processBatch(batch.map(Message.of));
        return out.map((messages) => messages.map((m) => m.inner));
      } catch (err) {
        const failed = batch.map((msg) => flagged(msg, err));
        log(failed[0]?.error ?? new Error(String(err)));
        return [failed];
      }
    },
    close: plugin.close?.bind(plugin) ?? closeNothing,
  };
}

export function cache(plugin: PluginCache): Cache {
  return {
    get: (key) => plugin.get(key),
    set: (key, value, ttlMs) => plugin.set(key, value, ttlMs),
    add: plugin.add
      ? (key, value, ttlMs) => plugin.add!(key, value, ttlMs)
      : async (key, value, ttlMs) => {
          if ((await plugin.get(key)) !== undefined) return false;
          await plugin.set(key, value, ttlMs);
          return true;
        },
    delete: (key) => plugin.delete(key),
    close: plugin.close?.bind(plugin) ?? closeNothing,
  };
}

export function rateLimit(plugin: PluginRateLimit): RateLimit {
  return { access: () => plugin.access(), close: plugin.close?.bind(plugin) ?? closeNothing };
}
