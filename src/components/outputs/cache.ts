// The `cache` output: stores each message under an interpolated key in a cache resource. The
// resource is looked up on every write, so one replaced over the API is used at once.
import type { Interpolation } from '../../bloblang/index.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Output, OutputWriter } from '../../engine/component.js';
import type { BuildContext } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { requireResource } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { durationMs } from '../fields/duration.js';

class CacheWriter implements OutputWriter {
  constructor(
    private readonly target: string,
    private readonly key: Interpolation,
    /** Rendered per message; an empty result means the cache's own TTL. */
    private readonly ttl: Interpolation | undefined,
    private readonly ctx: BuildContext,
  ) {}

  async connect(): Promise<void> {}

  async write(batch: Batch): Promise<void> {
    const entries = batch.map((msg, i) => ({
      key: this.key.render(batch, i),
      value: (msg as Message).bytes(),
      ttlMs: this.ttlMs(batch, i),
    }));
    await this.ctx.resources.useCache(this.target, async (cache) => {
      for (const e of entries) await cache.set(e.key, e.value, e.ttlMs);
    });
  }

  async close(): Promise<void> {}

  private ttlMs(batch: Batch, i: number): number | undefined {
    const text = this.ttl?.render(batch, i) ?? '';
    if (text === '') return undefined;
    // Rendered per message, so parsed here; a static ttl was already checked by lint.
    try {
      return durationMs(text, 'ttl');
    } catch (err) {
      throw new Error(`ttl must be a duration: ${errorMessage(err)}`);
    }
  }
}

export const spec = defineComponent({
  name: 'cache',
  kind: 'output',
  status: 'stable',
  categories: ['Services'],
  summary: 'Stores each message in a cache resource under an interpolated key.',
  description:
    'The message content is stored as the value. A batch is written key by key and succeeds once every key was stored; a failed store fails the batch, which is nacked. The cache resource is resolved on each write, so replacing it (`POST /resources/cache/{id}` in streams mode) takes effect without restarting the stream. `ttl` is honoured by caches with per-key expiry.',
  fields: [
    field.string('target', 'The label of the cache resource to write to.'),
    field.interpolated('key', 'The key of each message.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      default: '${!count("items")}-${!timestamp_unix_nano()}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      examples: ['${! json("id") }'],
    }),
    field.interpolated('ttl', 'How long each stored item lives, for caches with per-key expiry.', {
      check: 'duration',
      optional: true,
      advanced: true,
      examples: ['60s', '5m'],
    }),
    field.int('max_in_flight', 'How many batches may be written at once.', { default: 64 }),
  ],
  examples: [
    {
      title: 'Keep the latest document of each id',
      config: `input:
  stdin: {}
output:
  cache:
    target: latest
    key: \${! json("id") }
cache_resources:
  - label: latest
    memory: {}
`,
    },
  ],
  build: (config, ctx): Output => {
    requireResource(ctx, 'cache', config.target);
    return ctx.wrapWriter(new CacheWriter(config.target, config.key, config.ttl, ctx), {
      maxInFlight: config.max_in_flight,
    });
  },
});
