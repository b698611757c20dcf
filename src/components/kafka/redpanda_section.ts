// The service config's top-level `redpanda` section as the redpanda_common components read it:
// the kafka connection fields, the producer settings the output writes with, and the reference's
// logs and status topics (section_topics.ts). Parsed here with the same fields kafka_franz declares.
import { parseInterpolation, parseMapping } from '../../bloblang/index.js';
import { type ConfigOf, field, parseFields } from '../../config/spec.js';
import type { BuildContext } from '../../engine/context.js';
import { ConfigError } from '../../engine/errors.js';
import { refuseProblems } from '../fields/config_problems.js';
import { kafkaFranzOutputFields, lintKafkaFranzOutput } from '../outputs/kafka_franz.js';
import { kafkaConnectionFields, saslProblems } from './fields.js';
import { fieldsNamed, PRODUCER_SETTINGS } from './spec_fields.js';

const sectionFields = [
  ...kafkaConnectionFields(),
  field.string('pipeline_id', 'An identifier of the pipeline.', { default: '' }),
  field.string('logs_topic', 'A topic to send log lines to.', { default: '' }),
  field.enum('logs_level', 'The lowest level sent to logs_topic.', ['debug', 'info', 'warn', 'error'], {
    default: 'info',
  }),
  field.string('status_topic', 'A topic to send status events to.', { default: '' }),
  ...fieldsNamed(kafkaFranzOutputFields, PRODUCER_SETTINGS),
];

/** The parsed section (durations in ms). */
export type RedpandaSection = ConfigOf<typeof sectionFields>;

/** What lint says of the section on its own (the whole-config lint reports these at its line too). */
export function redpandaSectionProblems(section: RedpandaSection): string[] {
  const problems = [...saslProblems(section.sasl), ...lintKafkaFranzOutput(section)];
  return problems;
}

/**
 * The section a redpanda_common component connects with. Without one (or without seed_brokers)
 * the component cannot run: the reference fails at start, nekton refuses it at lint and here.
 */
export function redpandaSection(
  ctx: BuildContext,
  name: string,
  missing = `${name}: the top-level redpanda section with seed_brokers is missing (${name} connects with it)`,
): RedpandaSection {
  const raw = ctx.redpanda;
  const brokers = raw?.seed_brokers;
  if (!raw || !Array.isArray(brokers) || brokers.length === 0) throw new ConfigError(missing);
  return parseRedpandaSection(raw, `${name}: redpanda section: `);
}

const CONNECTION_FIELDS = kafkaConnectionFields().map((f) => f.name);

/**
 * A `redpanda` input or output written without seed_brokers connects as the top-level section
 * says (the reference then uses the section's shared client): its seed brokers, TLS, SASL and
 * timeouts replace the component's own connection fields.
 */
export function withSectionConnection<T extends { seed_brokers?: string[] | undefined }>(
  config: T,
  ctx: BuildContext,
  kind: 'input' | 'output',
): T {
  if ((config.seed_brokers ?? []).length > 0) return config;
  const section = redpandaSection(
    ctx,
    'redpanda',
    `redpanda ${kind}: seed_brokers is not set and there is no top-level redpanda section with seed_brokers to connect with`,
  ) as unknown as Record<string, unknown>;
  return { ...config, ...Object.fromEntries(CONNECTION_FIELDS.map((name) => [name, section[name]])) };
}

/** The section parsed by its fields; refuses what lint refuses (a build through the API skips lint). */
export function parseRedpandaSection(
  raw: Readonly<Record<string, unknown>>,
  prefix = 'redpanda: ',
): RedpandaSection {
  const section = parseFields(sectionFields, raw, PARSE) as RedpandaSection;
  refuseProblems(redpandaSectionProblems(section), prefix);
  return section;
}

// The section has no mappings or interpolations of its own.
const PARSE = {
  mapping: (text: string) => parseMapping(text),
  interpolation: (text: string) => parseInterpolation(text),
};
