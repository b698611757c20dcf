// The `backoff` object (initial_interval, max_interval, max_elapsed_time) used by retrying
// components, with per-component defaults as the reference gives them, and its conversion to
// the engine's BackoffConfig.
import { type FieldOptions, type FieldSpec, field, parseFields } from '../../config/spec.js';
import type { BackoffConfig } from '../../engine/backoff.js';
import { durationMs } from './duration.js';

export interface BackoffDefaults {
  initial_interval: string;
  max_interval: string;
  /** Omit for components whose backoff has no elapsed-time limit (e.g. cassandra). */
  max_elapsed_time?: string;
  /** A few components (jira, arc) carry `max_retries` inside the backoff object. */
  max_retries?: number;
}

export interface BackoffFieldOptions {
  advanced?: boolean;
  deprecated?: boolean;
  description?: string;
}

/** The object as written has the shape of its defaults (the optional fields exist where a default does). */
export type BackoffFieldConfig = BackoffDefaults;

/** The parsed `backoff` object: the engine's config in milliseconds, plus `max_retries` where declared. */
export interface ParsedBackoff extends BackoffConfig {
  maxRetries?: number;
}

/**
 * `backoffField({initial_interval: '500ms', max_interval: '3s', max_elapsed_time: '0s'}, {advanced: true})`:
 * lint checks each duration at its line; a `defineComponent` factory receives a `ParsedBackoff`.
 */
export function backoffField(
  defaults: BackoffDefaults,
  options: BackoffFieldOptions = {},
): FieldSpec<'backoff', BackoffFieldConfig, ParsedBackoff> {
  const flags: FieldOptions = {};
  if (options.advanced) flags.advanced = true;
  if (options.deprecated) flags.deprecated = true;
  const children: FieldSpec[] = [
    field.duration('initial_interval', 'How long to wait before the first retry.', {
      default: defaults.initial_interval,
      ...flags,
      examples: ['50ms', '1s'],
    }),
    field.duration(
      'max_interval',
      'The longest wait between two retries; waits grow exponentially up to it.',
      {
        default: defaults.max_interval,
        ...flags,
        examples: ['5s', '1m'],
      },
    ),
  ];
  if (defaults.max_elapsed_time !== undefined) {
    children.push(
      field.duration(
        'max_elapsed_time',
        'Give up retrying once this much time has passed since the first attempt; 0s retries forever.',
        { default: defaults.max_elapsed_time, ...flags, examples: ['1m', '1h'] },
      ),
    );
  }
  if (defaults.max_retries !== undefined) {
    children.push(
      field.int('max_retries', 'The most retries before giving up.', {
        default: defaults.max_retries,
        ...flags,
      }),
    );
  }
  const object = field.object(
    'backoff',
    options.description ?? 'How retries are spaced: an exponential backoff between the two intervals.',
    children,
    flags,
  );
  return {
    ...object,
    parse: (raw: BackoffFieldConfig, ctx, path) => {
      const ms = parseFields(children, raw, ctx, path) as { [K in keyof BackoffFieldConfig]: number };
      const parsed: ParsedBackoff = {
        initialMs: ms.initial_interval,
        maxMs: ms.max_interval,
        maxElapsedMs: ms.max_elapsed_time ?? 0,
      };
      if (ms.max_retries !== undefined) parsed.maxRetries = ms.max_retries;
      return parsed;
    },
  } as FieldSpec<'backoff', BackoffFieldConfig, ParsedBackoff>;
}

/** The engine's BackoffConfig from a checked `backoff` object; throws on a bad duration. */
export function toBackoffConfig(config: BackoffFieldConfig): BackoffConfig {
  return {
    initialMs: durationMs(config.initial_interval, 'backoff.initial_interval'),
    maxMs: durationMs(config.max_interval, 'backoff.max_interval'),
    maxElapsedMs:
      config.max_elapsed_time === undefined
        ? 0
        : durationMs(config.max_elapsed_time, 'backoff.max_elapsed_time'),
  };
}
