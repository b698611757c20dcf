// Typed service and stream configs built from checked values (defaults filled, components
// normalised). Omitted stream sections default to stdin -> none -> stdout when registered.
import type { ComponentConfig } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';
import { isPlainObject, type NormaliseContext, normaliseComponent, normaliseField } from './normalise.js';
import type { ConfigKind } from './schema.js';
import { RESOURCE_SECTIONS, SERVICE_FIELDS } from './service_spec.js';
import type { FieldSpec } from './spec.js';
import { failAt, problemAt } from './value_problems.js';

export interface PipelineConfig {
  /** -1 means one thread per CPU. */
  threads: number;
  processors: ComponentConfig[];
  /** Whether the config sets `threads` itself (engine/stream.ts: only then are threads used). */
  threadsWritten?: boolean;
}

export interface StreamConfig {
  input: ComponentConfig;
  buffer: ComponentConfig;
  pipeline: PipelineConfig;
  output: ComponentConfig;
}

export interface HttpConfig {
  enabled: boolean;
  address: string;
  root_path: string;
  debug_endpoints: boolean;
  cert_file: string;
  key_file: string;
  read_header_timeout: string;
  read_timeout: string;
  cors: { enabled: boolean; allowed_origins: string[] };
  basic_auth: {
    enabled: boolean;
    realm: string;
    username: string;
    password_hash: string;
    algorithm: string;
    salt: string;
  };
}

export interface LoggerConfig {
  level: string;
  format: string;
  add_timestamp: boolean;
  level_name: string;
  timestamp_name: string;
  message_name: string;
  static_fields: Record<string, string>;
  file: { path: string; rotate: boolean; rotate_max_age_days: number };
}

/** Named components shared by streams; each `label` is the resource name. */
export interface ResourcesConfig {
  input_resources: ComponentConfig[];
  processor_resources: ComponentConfig[];
  output_resources: ComponentConfig[];
  cache_resources: ComponentConfig[];
  rate_limit_resources: ComponentConfig[];
}

export interface ServiceConfig extends ResourcesConfig {
  http: HttpConfig;
  logger: LoggerConfig;
  metrics: ComponentConfig;
  tracer: ComponentConfig;
  /**
   * The top-level `redpanda` section (defaults filled), the connection the redpanda_common
   * components use; undefined when the config has none.
   */
  redpanda: Record<string, unknown> | undefined;
  /** Go duration strings, e.g. `20s`. */
  shutdown_delay: string;
  shutdown_timeout: string;
  /** Absent for a streams-mode observability config. */
  stream: StreamConfig | undefined;
  /** Unit-test definitions, as written. */
  tests: unknown[];
}

/** Whether a `redpanda` section has seed_brokers to connect with (what redpanda_common needs). */
export function redpandaConnected(section: ServiceConfig['redpanda']): boolean {
  const brokers = section?.seed_brokers;
  return Array.isArray(brokers) && brokers.some((b) => typeof b === 'string' && b.trim() !== '');
}

const DEFAULT_TYPES: Partial<Record<string, { kind: ConfigKind; name: string }>> = {
  input: { kind: 'input', name: 'stdin' },
  buffer: { kind: 'buffer', name: 'none' },
  output: { kind: 'output', name: 'stdout' },
  metrics: { kind: 'metrics', name: 'prometheus' },
  tracer: { kind: 'tracer', name: 'none' },
};

function fieldSpec(name: string): FieldSpec {
  const spec = SERVICE_FIELDS.find((f) => f.name === name);
  if (!spec) throw new Error(`no service field ${name}`);
  return spec;
}

function section(root: Record<string, unknown>, name: string, ctx: NormaliseContext): unknown {
  const value = root[name];
  const fallback = DEFAULT_TYPES[name];
  if ((value === undefined || value === null) && fallback) {
    if (!ctx.provider.get(fallback.kind, fallback.name)) {
      throw new ConfigError(
        `${name} is not configured and the default ${fallback.kind} ${fallback.name} is not available`,
      );
    }
    return normaliseComponent(
      fallback.kind,
      { [fallback.name]: {} },
      { docPath: [name], configPath: `root.${name}` },
      ctx,
    );
  }
  return normaliseField(fieldSpec(name), value, { docPath: [name], configPath: `root.${name}` }, ctx);
}

function rootObject(value: unknown, ctx: NormaliseContext): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (!isPlainObject(value)) failAt(ctx, [], 'expected the config to be an object');
  return value;
}

/** input, buffer, pipeline, output; any other key is ignored (lint reports it). */
export function toStreamConfig(value: unknown, ctx: NormaliseContext): StreamConfig {
  const root = rootObject(value, ctx);
  return {
    input: section(root, 'input', ctx) as ComponentConfig,
    buffer: section(root, 'buffer', ctx) as ComponentConfig,
    pipeline: {
      ...(section(root, 'pipeline', ctx) as PipelineConfig),
      threadsWritten: isPlainObject(root.pipeline) && root.pipeline.threads !== undefined,
    },
    output: section(root, 'output', ctx) as ComponentConfig,
  };
}

function resources(root: Record<string, unknown>, ctx: NormaliseContext): ResourcesConfig {
  const out = {} as ResourcesConfig;
  for (const name of RESOURCE_SECTIONS) {
    const list = section(root, name, ctx) as ComponentConfig[];
    list.forEach((resource, i) => {
      if (resource.label === '') problemAt(ctx, [name, i], `${name}.${i}: a resource must have a label`, 0);
    });
    out[name] = list;
  }
  return out;
}

/** A whole config file; `withStreamSections: false` for the streams-mode observability file. */
export function toServiceConfig(
  value: unknown,
  ctx: NormaliseContext,
  options: { withStreamSections?: boolean } = {},
): ServiceConfig {
  const root = rootObject(value, ctx);
  return {
    http: section(root, 'http', ctx) as HttpConfig,
    logger: section(root, 'logger', ctx) as LoggerConfig,
    metrics: section(root, 'metrics', ctx) as ComponentConfig,
    tracer: section(root, 'tracer', ctx) as ComponentConfig,
    redpanda:
      root.redpanda === undefined || root.redpanda === null
        ? undefined
        : (section(root, 'redpanda', ctx) as Record<string, unknown>),
    shutdown_delay: section(root, 'shutdown_delay', ctx) as string,
    shutdown_timeout: section(root, 'shutdown_timeout', ctx) as string,
    ...resources(root, ctx),
    stream: (options.withStreamSections ?? true) ? toStreamConfig(root, ctx) : undefined,
    tests: Array.isArray(root.tests) ? root.tests : [],
  };
}
