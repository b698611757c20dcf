// The metadata filter objects (`metadata`, `extract_headers`, `metadata_headers`): which
// metadata keys take part, by prefix or by regular expression.

import { compileConfigPatterns } from '../../config/config_patterns.js';
import { type FieldSpec, field } from '../../config/spec.js';

export interface MetadataFilterConfig {
  include_prefixes: string[];
  include_patterns: string[];
}

export function metadataFilterField(
  name: string,
  description: string,
  options: { optional?: boolean; advanced?: boolean } = {},
): FieldSpec {
  const a = (options.advanced ?? true) ? { advanced: true } : {};
  return field.object(
    name,
    description,
    [
      field.array(
        field.string('include_prefixes', 'Include metadata keys that start with any of these prefixes.', {
          default: [],
          ...a,
          examples: [['foo_', 'bar_'], ['kafka_']],
        }),
      ),
      field.array(
        field.string(
          'include_patterns',
          'Include metadata keys that match any of these regular expressions.',
          {
            default: [],
            ...a,
            regexp: true,
            examples: [['.*'], ['_timestamp_unix$']],
          },
        ),
      ),
    ],
    { ...a, ...(options.optional ? { optional: true } : {}) },
  );
}

/** A key predicate; null when the filter includes nothing (the common case, so callers can skip the loop). */
export function metadataFilter(config: MetadataFilterConfig | undefined): ((key: string) => boolean) | null {
  const prefixes = config?.include_prefixes ?? [];
  const patterns = compileConfigPatterns(config?.include_patterns ?? [], 'include_patterns');
  if (prefixes.length === 0 && patterns.length === 0) return null;
  return (key) => prefixes.some((p) => key.startsWith(p)) || patterns.some((re) => re.test(key));
}
