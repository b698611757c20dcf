// `cached`: caches the result of child processors under a key, so a message whose key is already
// cached gets the stored result instead of running them.
import type { Logger } from 'pino';
import type { Interpolation, Mapping } from '../../bloblang/index.js';
import { defineComponent, durationMs, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import type { Resources } from '../../engine/context.js';
import { errorMessage } from '../../engine/errors.js';
import { runProcessors } from '../../engine/observed_processor.js';
import { perMessage, processorErrorLog, requireResource } from '../../engine/processor_helpers.js';
import type { Batch, Message } from '../../message/message.js';
import { decodeCachedResult, encodeCachedResult } from './cached_format.js';
import { buildChildren, closeAll } from './stepwise.js';

export interface CachedSettings {
  cache: string;
  key: Interpolation;
  ttl: Interpolation | null;
  skipOn: Mapping | null;
}

export class CachedProcessor implements Processor {
  readonly process: Processor['process'];

  constructor(
    private readonly settings: CachedSettings,
    private readonly children: Processor[],
    private readonly resources: Resources,
    private readonly logger: Logger,
  ) {
    this.process = perMessage((msg, batch, i) => this.one(msg, batch, i), {
      onError: processorErrorLog(logger),
    });
  }

  close(): Promise<void> {
    return closeAll(this.children);
  }

  private async one(msg: Message, batch: Batch, index: number): Promise<Message[]> {
    const { cache, key: keyText, ttl: ttlText } = this.settings;
    // A failing query in the key renders as null (as interpolations do everywhere), not an error.
    const key = keyText.render(batch, index);
    const ttlMs = ttlText === null ? undefined : this.ttlOf(ttlText, batch, index);

    const stored = await this.resources.useCache(cache, (c) => c.get(key));
    if (stored !== undefined) return this.fromCache(msg, stored);

    const results = await runProcessors(this.children, [msg]);
    const out: Message[] = [];
    let keep = true;
    for (const result of results) {
      if (keep && this.skips(result)) keep = false;
      for (const m of result) out.push(m);
    }
    // Failing to store is not the message's problem: it goes on with the processors' result.
    if (keep) {
      try {
        const value = encodeCachedResult(out.map((m) => m.bytes()));
        await this.resources.useCache(cache, (c) => c.set(key, value, ttlMs));
      } catch (err) {
        this.logger.error(`failed to write result to cache: ${errorMessage(err)}`);
      }
    }
    return out;
  }

  private ttlOf(ttl: Interpolation, batch: Batch, index: number): number {
    const text = ttl.render(batch, index);
    // As the reference: an empty TTL is not a duration.
    if (text.trim() === '') throw new Error('failed to parse ttl expression: empty duration');
    // Only the rendered text is a duration (lint checks a static one).
    try {
      return durationMs(text, 'ttl');
    } catch (err) {
      throw new Error(`failed to parse ttl expression: ${errorMessage(err)}`);
    }
  }

  /** The stored result: copies of the message (metadata kept) with each stored content. */
  private fromCache(msg: Message, stored: Uint8Array): Message[] {
    let parts: Uint8Array[];
    try {
      parts = decodeCachedResult(stored);
    } catch (err) {
      throw new Error(
        `failed to parse cached result, this indicates the data was not set by this processor: ${errorMessage(err)}`,
      );
    }
    return parts.map((part) => {
      const copy = msg.copy();
      copy.setBytes(part);
      return copy;
    });
  }

  /** Whether skip_on says not to cache this result batch; a failing check skips, to be safe. */
  private skips(result: Batch): boolean {
    const skipOn = this.settings.skipOn;
    if (skipOn === null || result.length === 0) return false;
    try {
      const verdict = skipOn.query(result, 0);
      if (typeof verdict === 'boolean') return verdict;
      throw new Error(`skip_on did not return a boolean: ${JSON.stringify(verdict)}`);
    } catch (err) {
      this.logger.error(
        `skip_on check failed: ${errorMessage(err)}, caching will be skipped as a precaution`,
      );
      return true;
    }
  }
}

export const spec = defineComponent({
  name: 'cached',
  kind: 'processor',
  status: 'stable',
  categories: ['Utility'],
  summary:
    'Caches the result of its child processors under a key: a message whose key is already cached gets the cached result instead of running them.',
  description: `Useful when an expensive step (an HTTP call, a database lookup) gives the same result for many messages, e.g. per topic or periodically.

For each message the \`key\` is computed; when the cache holds a result under it, the message content is replaced by that result (a result of several messages gives several messages, each a copy of the input with its metadata) and the child processors do not run. Otherwise the processors run and their result is stored, with \`ttl\` when given, unless \`skip_on\` returns \`true\` for it. Only message contents are stored, not metadata or error flags: use \`skip_on: errored()\` to keep failed results out of the cache.

The stored bytes use the reference's versioned format, so this processor cannot read a cache filled by anything else: such an entry flags the message. Failing to store a result is only logged; a key or \`ttl\` that fails to resolve, or a cache that fails to answer, flags the message.`,
  fields: [
    field.string('cache', 'The cache resource to read and write processor results from.'),
    field.mapping(
      'skip_on',
      'A condition that can be used to skip caching the results from the processors.',
      {
        optional: true,
        examples: ['errored()'],
      },
    ),
    field.interpolated(
      'key',
      'A key to be resolved for each message: if the cache has it the cached result is used, otherwise the processors run and their result is cached under it. A static key shares one result between all messages.',
      {
        examples: [
          'my_foo_result',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
          '${! this.document.id }',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
          '${! meta("kafka_key") }',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation, not a JS template
          '${! meta("kafka_topic") }',
        ],
      },
    ),
    field.interpolated(
      'ttl',
      'How long each cached result lives. Caches with only a general TTL (lru, ttlru) ignore it.',
      { check: 'duration', optional: true },
    ),
    field.array(field.component('processor', 'processors', 'The processors whose result is cached.')),
  ],
  examples: [
    {
      title: 'Periodic global enrichment',
      config: `input:
  generate:
    count: 3
    interval: ''
    mapping: 'root = {"id": counter()}'
pipeline:
  processors:
    - branch:
        request_map: 'root = ""'
        processors:
          - cached:
              key: static_foo
              cache: foo_cache
              ttl: 10m
              processors:
                - mapping: 'root = {"fetched_at": now()}'
        result_map: 'root.foo = this'
output:
  stdout: {}
cache_resources:
  - label: foo_cache
    memory: {}
`,
    },
  ],
  build: async (config, ctx): Promise<Processor> => {
    requireResource(ctx, 'cache', config.cache);
    const settings: CachedSettings = {
      cache: config.cache,
      key: config.key,
      ttl: config.ttl ?? null,
      skipOn: config.skip_on ?? null,
    };
    return new CachedProcessor(
      settings,
      await buildChildren(config.processors, ctx),
      ctx.resources,
      ctx.logger,
    );
  },
});
