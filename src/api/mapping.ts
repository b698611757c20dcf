// Bloblang from code: parse once, run many times. Parse errors are BloblangParseError (with the
// line and column the CLI prints), failures while running are MappingError.
import { parseMapping as compile } from '../bloblang/index.js';
import { Message as EngineMessage } from '../message/message.js';
import { Message } from './message.js';

export interface CompiledMapping {
  /** The value the mapping assigns to `root` when `this` is `value`. */
  query(value: unknown, metadata?: Record<string, unknown>): unknown;
  /** The `mapping` processor's result for a message: a new message, or null when deleted. */
  apply(message: Message): Message | null;
}

/** `importDir`: where relative `import` statements resolve (default: the working directory). */
export function parseMapping(text: string, options: { importDir?: string } = {}): CompiledMapping {
  const mapping = compile(text, { importDir: options.importDir ?? process.cwd() });
  return {
    query(value, metadata) {
      const message = EngineMessage.fromStructured(value);
      for (const [key, entry] of Object.entries(metadata ?? {})) message.setMeta(key, entry);
      return mapping.query([message], 0);
    },
    apply(message) {
      const out = mapping.apply([message.inner], 0);
      return out ? Message.of(out) : null;
    },
  };
}
