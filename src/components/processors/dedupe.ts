// `dedupe`: drops messages whose key was already added to a cache resource.
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { errorMessage } from '../../engine/errors.js';
import { flagged, perMessage, processorErrorLog, requireResource } from '../../engine/processor_helpers.js';

const MARKER = new Uint8Array([0x74]); // 't', the value the reference stores
const EMPTY_KEY = 'dedupe key must not be empty';

export const spec = defineComponent({
  name: 'dedupe',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Deduplicates messages by adding a key per message to a cache; a message whose key is already there is dropped.',
  description: `Caches are configured as resources. Each message is checked on its own; to deduplicate whole batches use the \`cache\` processor in a \`branch\`.

Delivery guarantee: the key is stored before the message reaches the output, so a message that then fails to be delivered and is redelivered by the source is dropped as a duplicate. Wrap an output that may fail in \`retry\` so failures are retried after this processor rather than before it.`,
  fields: [
    field.string('cache', 'The name of the cache resource to store keys in.'),
    field.interpolated('key', 'The key to deduplicate by, interpolated per message.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
      examples: ['${! meta("kafka_key") }', '${! content().hash("xxhash64") }'],
    }),
    field.bool(
      'drop_on_err',
      'Whether a message is dropped when the cache fails (for instance a network error); otherwise it passes on flagged as failed.',
      { default: true },
    ),
  ],
  examples: [
    {
      title: 'Drop repeated ids within a minute',
      config: `input:
  generate:
    count: 6
    interval: ''
    mapping: 'root.id = counter() % 3'
pipeline:
  processors:
    - dedupe:
        cache: keys
        key: '\${! json("id") }'
output:
  stdout: {}
cache_resources:
  - label: keys
    memory:
      default_ttl: 60s
`,
    },
  ],
  lint: (config) => (config.key === '' ? [EMPTY_KEY] : []),
  build: (config, ctx): Processor => {
    requireResource(ctx, 'cache', config.cache);
    const key = config.key;
    const logError = processorErrorLog(ctx.logger);
    return {
      process: perMessage(async (msg, batch, i) => {
        let k: string;
        try {
          k = key.render(batch, i);
        } catch (err) {
          // Kept and flagged rather than dropped: a key we cannot read is not a known duplicate.
          return flagged(msg, new Error(`key interpolation error: ${errorMessage(err)}`));
        }
        try {
          const added = await ctx.resources.useCache(config.cache, (cache) => cache.add(k, MARKER));
          return added ? msg : null;
        } catch (err) {
          logError(new Error(`cache error: ${errorMessage(err)}`));
          return config.drop_on_err ? null : flagged(msg, err);
        }
      }),
      close: async () => {},
    };
  },
});
