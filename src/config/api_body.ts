// Config bodies of the streams API (spec §2): optional env interpolation, YAML/JSON parse,
// the lint gate (skipped when chilled), conversion. Lints read `(<line>,<col>) <message>`.

import type { ComponentConfig } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';
import type { BloblangChecker } from './bloblang_check.js';
import { type EnvLookup, interpolateEnv, missingEnvMessage } from './env_interpolation.js';
import { formatApiLint, type Lint } from './lint.js';
import { lintComponentConfig, lintStreamConfig, lintStreamsBody } from './lint_config.js';
import { isPlainObject, normaliseComponent } from './normalise.js';
import type { ConfigKind, SchemaProvider } from './schema.js';
import { type StreamConfig, toStreamConfig } from './service_config.js';
import {
  buildLineIndex,
  type ParsedYaml,
  parseYaml,
  pathKey,
  type TextPosition,
  yamlToValue,
} from './yaml_document.js';

export interface BodyOptions {
  provider: SchemaProvider;
  /** Interpolate `${VAR}` with this lookup; omit for endpoints that do not interpolate. */
  env?: EnvLookup;
  /** `?chilled=true`: missing variables become "" and the lint gate is skipped. */
  chilled?: boolean;
  bloblang?: BloblangChecker;
  /** Whether the observability config has a redpanda section (redpanda_common needs one). */
  redpandaSection?: boolean;
}

export type BodyResult<C> =
  | {
      ok: true;
      config: C;
      /** After env interpolation: what the components run with. */
      raw: unknown;
      /** As posted, `${VAR}` references unexpanded: what reads show (absent when equal to raw). */
      posted?: unknown;
    }
  | { ok: false; lints: string[] };

/** Interpolates and parses; throws ConfigError for env and YAML problems (400 `Error: ...`). */
export function parseBody(text: string, options: Pick<BodyOptions, 'env' | 'chilled'>): ParsedYaml {
  return parseYaml(interpolated(text, options));
}

/** The body with `${VAR}` expanded (when options.env is given); throws ConfigError. */
export function interpolated(text: string, options: Pick<BodyOptions, 'env' | 'chilled'>): string {
  if (!options.env) return text;
  const result = interpolateEnv(text, options.env);
  if (result.errors.length > 0) throw new ConfigError(result.errors.join('; '));
  if (result.missing.length > 0 && !options.chilled) throw new ConfigError(missingEnvMessage(result.missing));
  return result.text;
}

/**
 * The body as posted, before env interpolation, so that a read never shows an expanded secret.
 * Undefined when nothing was interpolated; a body that only parses once expanded reads as null.
 */
function postedValue(text: string, options: Pick<BodyOptions, 'env'>): unknown {
  if (!options.env || !text.includes('${')) return undefined;
  try {
    return yamlToValue(parseYaml(text));
  } catch {
    return null;
  }
}

function withPosted<C>(result: BodyResult<C>, text: string, options: BodyOptions): BodyResult<C> {
  if (!result.ok) return result;
  const posted = postedValue(text, options);
  return posted === undefined ? result : { ...result, posted };
}

/** A stream config body (`POST|PUT /streams/{id}`, each entry of `POST /streams`). */
export function readStreamBody(text: string, options: BodyOptions): BodyResult<StreamConfig> {
  return withPosted(checkStream(parseBody(text, options), options), text, options);
}

/** A parsed (or merged) stream document through the lint gate and conversion. */
export function checkStream(parsed: ParsedYaml, options: BodyOptions): BodyResult<StreamConfig> {
  if (!options.chilled) {
    const lints = lintStreamConfig(parsed, options);
    if (lints.length > 0) return { ok: false, lints: lints.map(formatApiLint) };
  }
  const raw = yamlToValue(parsed);
  const config = toStreamConfig(raw, { provider: options.provider, lines: buildLineIndex(parsed) });
  return { ok: true, config, raw };
}

/** A resource body (`POST /resources/{type}/{id}`): one component of `kind`. */
export function readComponentBody(
  text: string,
  kind: ConfigKind,
  options: BodyOptions,
): BodyResult<ComponentConfig> {
  return withPosted(checkComponent(parseBody(text, options), kind, options), text, options);
}

function checkComponent(
  parsed: ParsedYaml,
  kind: ConfigKind,
  options: BodyOptions,
): BodyResult<ComponentConfig> {
  if (!options.chilled) {
    const lints = lintComponentConfig(parsed, kind, options);
    if (lints.length > 0) return { ok: false, lints: lints.map(formatApiLint) };
  }
  return convertComponent(parsed, kind, options);
}

/** A linted component document as its config. */
export function convertComponent(
  parsed: ParsedYaml,
  kind: ConfigKind,
  options: Pick<BodyOptions, 'provider'>,
): BodyResult<ComponentConfig> {
  const raw = yamlToValue(parsed);
  const config = normaliseComponent(
    kind,
    raw,
    { docPath: [], configPath: 'root' },
    {
      provider: options.provider,
      lines: buildLineIndex(parsed),
    },
  );
  return { ok: true, config, raw };
}

export interface StreamEntry {
  config: StreamConfig;
  raw: unknown;
}

/**
 * A `POST /streams` body `{<id>: <stream>, ...}` (never env-interpolated). Lints read
 * `stream '<id>': (<line>,<col>) <message>` with lines relative to the whole body.
 */
export function readStreamsBody(
  text: string,
  options: Omit<BodyOptions, 'env'>,
): BodyResult<Map<string, StreamEntry>> {
  return checkStreamsBody(parseBody(text, {}), options);
}

function checkStreamsBody(
  parsed: ParsedYaml,
  options: Omit<BodyOptions, 'env'>,
): BodyResult<Map<string, StreamEntry>> {
  if (!options.chilled) {
    const lints = streamsLints(lintStreamsBody(parsed, options));
    if (lints.length > 0) return { ok: false, lints };
  }
  return convertStreams(parsed, options);
}

/** Lints of a `POST /streams` body as the API words them. */
export function streamsLints(byStream: { id: string; lints: Lint[] }[]): string[] {
  return byStream.flatMap(({ id, lints }) => lints.map((lint) => `stream '${id}': ${formatApiLint(lint)}`));
}

/** A linted `POST /streams` document as its stream configs. */
export function convertStreams(
  parsed: ParsedYaml,
  options: Pick<BodyOptions, 'provider'>,
): BodyResult<Map<string, StreamEntry>> {
  const raw = yamlToValue(parsed);
  if (raw !== null && raw !== undefined && !isPlainObject(raw))
    throw new ConfigError('expected an object of stream configs');
  const lines = buildLineIndex(parsed);
  const streams = new Map<string, StreamEntry>();
  for (const [id, value] of Object.entries(raw ?? {})) {
    const shifted = new Map<string, TextPosition>();
    const rootAt = lines.get(pathKey([id]));
    if (rootAt !== undefined) shifted.set('', rootAt);
    const prefix = `${pathKey([id])}\u0000`;
    for (const [key, at] of lines) if (key.startsWith(prefix)) shifted.set(key.slice(prefix.length), at);
    streams.set(id, {
      config: toStreamConfig(value, { provider: options.provider, lines: shifted }),
      raw: value,
    });
  }
  return { ok: true, config: streams, raw };
}
