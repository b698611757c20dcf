// Config bodies of the streams API (spec §2): optional env interpolation, YAML/JSON parse,
// the lint gate (skipped when chilled), conversion. Lints read `(<line>,<col>) <message>`.

import type { ComponentConfig } from '../engine/context.js';
import { ConfigError } from '../engine/errors.js';
import type { TimeSlicer } from '../engine/time_slicer.js';
import { type BloblangChecker, bloblangChecker } from './bloblang_check.js';
import { precheckBloblang } from './bloblang_precheck.js';
import { type EnvLookup, interpolateEnv, missingEnvMessage } from './env_interpolation.js';
import { formatApiLint } from './lint.js';
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
import { parseYamlSliced } from './yaml_sliced.js';

export interface BodyOptions {
  provider: SchemaProvider;
  /** Interpolate `${VAR}` with this lookup; omit for endpoints that do not interpolate. */
  env?: EnvLookup;
  /** `?chilled=true`: missing variables become "" and the lint gate is skipped. */
  chilled?: boolean;
  bloblang?: BloblangChecker;
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

function interpolated(text: string, options: Pick<BodyOptions, 'env' | 'chilled'>): string {
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

/** postedValue, parsing in time slices. */
async function postedValueSliced(text: string, options: Pick<BodyOptions, 'env'>, slicer: TimeSlicer) {
  if (!options.env || !text.includes('${')) return undefined;
  try {
    return yamlToValue(await parseYamlSliced(text, slicer));
  } catch {
    return null;
  }
}

async function withPostedSliced<C>(
  result: BodyResult<C>,
  text: string,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<C>> {
  if (!result.ok) return result;
  const posted = await postedValueSliced(text, options, slicer);
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
    const lints = lintStreamsBody(parsed, options).flatMap(({ id, lints }) =>
      lints.map((lint) => `stream '${id}': ${formatApiLint(lint)}`),
    );
    if (lints.length > 0) return { ok: false, lints };
  }
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

// The same readers for the API handlers of a big body: the lint's Bloblang checks run first in
// time slices (see bloblang_precheck.ts), then the plain reader runs with their answers.

/** The checker a sliced read lints with: the answers, worked out with pauses for the event loop. */
function slicedChecker(
  options: Pick<BodyOptions, 'chilled' | 'bloblang'>,
  slicer: TimeSlicer,
  lint: (checker: BloblangChecker) => unknown,
): Promise<BloblangChecker | undefined> {
  if (options.chilled) return Promise.resolve(options.bloblang);
  return precheckBloblang(lint, options.bloblang ?? bloblangChecker, slicer);
}

/** readStreamBody, pausing for the event loop while it checks mappings. */
export async function readStreamBodySliced(
  text: string,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<StreamConfig>> {
  const parsed = await parseYamlSliced(interpolated(text, options), slicer);
  const bloblang = await slicedChecker(options, slicer, (checker) =>
    lintStreamConfig(parsed, { ...options, bloblang: checker }),
  );
  return withPostedSliced(checkStream(parsed, { ...options, bloblang }), text, options, slicer);
}

/** readComponentBody, pausing for the event loop while it checks mappings. */
export async function readComponentBodySliced(
  text: string,
  kind: ConfigKind,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<ComponentConfig>> {
  const parsed = await parseYamlSliced(interpolated(text, options), slicer);
  const bloblang = await slicedChecker(options, slicer, (checker) =>
    lintComponentConfig(parsed, kind, { ...options, bloblang: checker }),
  );
  return withPostedSliced(checkComponent(parsed, kind, { ...options, bloblang }), text, options, slicer);
}

/** readStreamsBody, pausing for the event loop while it checks mappings. */
export async function readStreamsBodySliced(
  text: string,
  options: Omit<BodyOptions, 'env'>,
  slicer: TimeSlicer,
): Promise<BodyResult<Map<string, StreamEntry>>> {
  const parsed = await parseYamlSliced(text, slicer);
  const bloblang = await slicedChecker(options, slicer, (checker) =>
    lintStreamsBody(parsed, { ...options, bloblang: checker }),
  );
  return checkStreamsBody(parsed, { ...options, bloblang });
}
