// The metadata filter objects (`metadata`, `extract_headers`, `metadata_headers`): which
// metadata keys take part, by prefix or by regular expression.

import { compileConfigPatterns } from '../../config/config_patterns.js';
import { type FieldSpec, field, type RawConfigOf } from '../../config/spec.js';

function filterFields(flags: { advanced?: true }) {
  return [
    field.array(
      field.string('include_prefixes', 'Include metadata keys that start with any of these prefixes.', {
        default: [],
        ...flags,
        examples: [['foo_', 'bar_'], ['kafka_']],
      }),
    ),
    field.array(
      field.string('include_patterns', 'Include metadata keys that match any of these regular expressions.', {
        default: [],
        ...flags,
        regexp: true,
        examples: [['.*'], ['_timestamp_unix$']],
      }),
    ),
  ] as const;
}

export type MetadataFilterConfig = RawConfigOf<ReturnType<typeof filterFields>>;

/** Which metadata keys a filter lets through; null when it includes nothing. */
export type MetadataKeyFilter = ((key: string) => boolean) | null;

/**
 * The filter object; lint checks its patterns, and a `defineComponent` factory receives the
 * compiled predicate (`MetadataKeyFilter`).
 */
export function metadataFilterField<const N extends string>(
  name: N,
  description: string,
  options: { optional?: boolean; advanced?: boolean } = {},
): FieldSpec<N, MetadataFilterConfig | undefined, MetadataKeyFilter> {
  const a: { advanced?: true } = (options.advanced ?? true) ? { advanced: true } : {};
  const object = field.object(name, description, filterFields(a), {
    ...a,
    ...(options.optional ? { optional: true } : {}),
  });
  return {
    ...object,
    parse: (raw: MetadataFilterConfig | undefined) => metadataFilter(raw),
  } as FieldSpec<N, MetadataFilterConfig | undefined, MetadataKeyFilter>;
}

/** A key predicate; null when the filter includes nothing (the common case, so callers can skip the loop). */
export function metadataFilter(config: MetadataFilterConfig | undefined): MetadataKeyFilter {
  const prefixes = config?.include_prefixes ?? [];
  const patterns = compileConfigPatterns(config?.include_patterns ?? [], 'include_patterns');
  if (prefixes.length === 0 && patterns.length === 0) return null;
  return (key) => prefixes.some((p) => key.startsWith(p)) || patterns.some((re) => re.test(key));
}
