// `cache`: runs one operation (set, add, get, delete, exists) against a cache resource per message.
import { defineComponent, durationMs, field } from '../../config/spec.js';
import type { Cache, Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog, requireResource } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';

type Operation = (cache: Cache, key: string, value: Uint8Array, ttlMs: number | undefined) => Promise<Result>;
/** What to do with the message once the operation succeeded. */
type Result = ((msg: Message) => Message) | null;

const OPERATIONS: Record<string, Operation> = {
  set: async (cache, key, value, ttl) => {
    await cache.set(key, value, ttl);
    return null;
  },
  add: async (cache, key, value, ttl) => {
    if (!(await cache.add(key, value, ttl))) throw new Error(`key already exists: ${key}`);
    return null;
  },
  get: async (cache, key) => {
    const found = await cache.get(key);
    if (found === undefined) throw new Error(`operator failed for key '${key}': key does not exist`);
    return (msg) => withContent(msg, (out) => out.setBytes(found));
  },
  delete: async (cache, key) => {
    await cache.delete(key);
    return null;
  },
  exists: async (cache, key) => {
    const found = (await cache.get(key)) !== undefined;
    return (msg) => withContent(msg, (out) => out.setStructured(found));
  },
};

function withContent(msg: Message, edit: (out: Message) => void): Message {
  const out = msg.copy();
  edit(out);
  return out;
}

const encoder = new TextEncoder();

export const spec = defineComponent({
  name: 'cache',
  kind: 'processor',
  status: 'stable',
  categories: ['Integration'],
  summary: 'Runs an operation against a cache resource for each message: store, read or delete data by key.',
  description: `\`key\`, \`value\` and \`ttl\` are interpolated for each message. Operators:

- \`set\`: store \`value\` under \`key\`, replacing any existing value.
- \`add\`: store \`value\` under \`key\` only when the key is absent; otherwise the message is flagged with a "key already exists" error (useful for deduplication with error handling).
- \`get\`: replace the message content with the cached value; a missing key flags the message.
- \`delete\`: remove the key; a missing key is not an error.
- \`exists\`: replace the message content with \`true\` or \`false\`.

A failed operation flags the message and leaves its content unchanged. \`ttl\` is honoured by caches that support per-key expiry (such as \`memory\`); others use their own settings.`,
  fields: [
    field.string('resource', 'The name of the cache resource to use.'),
    field.enum('operator', 'The operation to perform.', ['set', 'add', 'get', 'delete', 'exists']),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
    field.interpolated('key', 'The key to operate on.', { examples: ['${! json("id") }'] }),
    field.interpolated('value', 'The value to store, for `set` and `add`.', { optional: true }),
    field.interpolated(
      'ttl',
      'How long a stored item lives, as a duration, for caches that support per-key expiry.',
      {
        check: 'duration',
        optional: true,
        advanced: true,
        examples: ['60s', '5m', '36h'],
      },
    ),
  ],
  examples: [
    {
      title: 'Drop messages already seen',
      config: `input:
  generate:
    count: 4
    interval: ''
    mapping: 'root.id = counter() % 2'
pipeline:
  processors:
    - cache:
        resource: seen
        operator: add
        key: '\${! json("id") }'
        value: 'x'
    - mapping: 'root = if errored() { deleted() }'
output:
  stdout: {}
cache_resources:
  - label: seen
    memory:
      default_ttl: 60s
`,
    },
  ],
  build: (config, ctx): Processor => {
    requireResource(ctx, 'cache', config.resource);
    const operation = OPERATIONS[config.operator.toLowerCase()];
    if (!operation) throw new ConfigError(`operator not recognised: ${config.operator}`);
    const { key, value, ttl } = config;
    const staticValue = value?.isStatic === false ? null : encoder.encode(value?.render([], 0) ?? '');
    const logError = processorErrorLog(ctx.logger);

    const render = (what: string, fn: () => string): string => {
      try {
        return fn();
      } catch (err) {
        throw new Error(`${what} interpolation error: ${errorMessage(err)}`);
      }
    };
    const ttlMs = (batch: Batch, i: number): number | undefined => {
      if (ttl === undefined) return undefined;
      const text = render('ttl', () => ttl.render(batch, i));
      if (text === '') return undefined;
      // Only the rendered text is a duration (lint checks a static one).
      try {
        return durationMs(text, 'ttl');
      } catch (err) {
        throw new Error(`ttl must be a duration: ${errorMessage(err)}`);
      }
    };

    return {
      process: perMessage(
        async (msg, batch, i) => {
          const k = render('key', () => key.render(batch, i));
          const v = staticValue ?? encoder.encode(render('value', () => value?.render(batch, i) ?? ''));
          const t = ttlMs(batch, i);
          const apply = await ctx.resources.useCache(config.resource, (cache) => operation(cache, k, v, t));
          return apply ? apply(msg) : msg;
        },
        { onError: logError },
      ),
      close: async () => {},
    };
  },
});
