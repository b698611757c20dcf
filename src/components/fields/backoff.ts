// The `backoff` object (initial_interval, max_interval, max_elapsed_time) used by retrying
// components, with per-component defaults as the reference gives them, and its conversion to
// the engine's BackoffConfig.
import { type FieldSpec, field } from '../../config/spec.js';
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

export interface BackoffFieldConfig {
  initial_interval: string;
  max_interval: string;
  max_elapsed_time?: string;
  max_retries?: number;
}

/** `backoffField({initial_interval: '500ms', max_interval: '3s', max_elapsed_time: '0s'}, {advanced: true})` */
export function backoffField(defaults: BackoffDefaults, options: BackoffFieldOptions = {}): FieldSpec {
  const flags: Partial<FieldSpec> = {};
  if (options.advanced) flags.advanced = true;
  if (options.deprecated) flags.deprecated = true;
  const children: FieldSpec[] = [
    field.string('initial_interval', 'How long to wait before the first retry.', {
      default: defaults.initial_interval,
      ...flags,
      examples: ['50ms', '1s'],
    }),
    field.string('max_interval', 'The longest wait between two retries; waits grow exponentially up to it.', {
      default: defaults.max_interval,
      ...flags,
      examples: ['5s', '1m'],
    }),
  ];
  if (defaults.max_elapsed_time !== undefined) {
    children.push(
      field.string(
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
  return field.object(
    'backoff',
    options.description ?? 'How retries are spaced: an exponential backoff between the two intervals.',
    children,
    flags,
  );
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
