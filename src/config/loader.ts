// Reads a config file: env interpolation (with `-e` files), YAML with positions, `--set`
// overrides, lint (unless the first line disables it), conversion to a typed config.
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../engine/errors.js';
import type { BloblangChecker } from './bloblang_check.js';
import { loadEnvFiles } from './env_file.js';
import { envLookup, interpolateEnv, missingEnvMessage } from './env_interpolation.js';
import { formatFileLint, type Lint, lintAt } from './lint.js';
import { lintServiceConfig, lintStreamConfig } from './lint_config.js';
import { configErrorAt, PositionedConfigError } from './positioned_error.js';
import type { SchemaProvider } from './schema.js';
import { type ServiceConfig, type StreamConfig, toServiceConfig, toStreamConfig } from './service_config.js';
import { applySetOverrides, parseSetOverride } from './set_overrides.js';
import { normaliseAll } from './value_problems.js';
import { buildLineIndex, type LineIndex, type ParsedYaml, parseYaml, yamlToValue } from './yaml_document.js';

export interface LoadOptions {
  provider: SchemaProvider;
  /** The process environment; `-e` files override it. Defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** `--set path=value` expressions. */
  sets?: readonly string[];
  /** Dotenv files, read in order. */
  envFiles?: readonly string[];
  bloblang?: BloblangChecker;
  /** `lint --skip-env-var-check`: an undefined `${VAR}` without a default is not a lint. */
  skipEnvVarCheck?: boolean;
  /** Streams mode: whether the observability config has a redpanda section (see LintOptions). */
  redpandaSection?: boolean;
  /** `lint --deprecated` and `--labels`. */
  rejectDeprecated?: boolean;
  requireLabels?: boolean;
}

export interface LoadedConfig<C> {
  config: C;
  /** `<path>(<line>,<col>) <message>`; fatal unless the caller runs chilled. */
  lints: string[];
  /** The document as written (after env interpolation and --set). */
  raw: unknown;
  /** The document as written before env interpolation (with --set): what reads show. */
  posted: unknown;
  /** Line of each path in the document, for errors found after loading. */
  lines: LineIndex;
}

const LINT_DISABLE = /^# (BENTHOS|NEKTON) LINT DISABLE/;

/** A file whose first line is `# BENTHOS LINT DISABLE` (or `# NEKTON ...`) is not linted. */
export function lintDisabled(text: string): boolean {
  return LINT_DISABLE.test(text);
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory' : String(err);
    throw new ConfigError(`${path}: ${problem}`, undefined, undefined, path);
  }
}

interface PreparedFile {
  parsed: ParsedYaml;
  posted: () => unknown;
  envLints: Lint[];
  lintable: boolean;
}

async function prepare(path: string, options: LoadOptions): Promise<PreparedFile> {
  return prepareText(await readText(path), path, options);
}

async function prepareText(text: string, path: string, options: LoadOptions): Promise<PreparedFile> {
  const fileVars = options.envFiles?.length ? await loadEnvFiles(options.envFiles) : {};
  const env = options.env ?? process.env;
  const lookup = (name: string) => (Object.hasOwn(fileVars, name) ? fileVars[name] : envLookup(env)(name));
  const interpolated = interpolateEnv(text, lookup);
  if (interpolated.errors.length > 0) {
    const line = interpolated.firstErrorLine;
    throw configErrorAt(line, 1, interpolated.errors.join('; '), path);
  }
  const parsed = parseYaml(interpolated.text, path);
  applySetOverrides(parsed, (options.sets ?? []).map(parseSetOverride));
  const envLints =
    interpolated.missing.length > 0 && !options.skipEnvVarCheck
      ? [lintAt(1, missingEnvMessage(interpolated.missing))]
      : [];
  const posted = () => (text === interpolated.text ? yamlToValue(parsed) : postedValue(text, options.sets));
  return { parsed, posted, envLints, lintable: !lintDisabled(text) };
}

/** The file before env interpolation, so reads never show an expanded secret; null if only the expanded form parses. */
function postedValue(text: string, sets: readonly string[] | undefined): unknown {
  try {
    const parsed = parseYaml(text);
    applySetOverrides(parsed, (sets ?? []).map(parseSetOverride));
    return yamlToValue(parsed);
  } catch {
    return null;
  }
}

function withFile<T>(path: string, convert: () => T): T {
  try {
    return convert();
  } catch (err) {
    if (err instanceof PositionedConfigError && !err.file) throw err.inFile(path);
    if (err instanceof ConfigError && !err.file) {
      throw new ConfigError(`${path}: ${err.message}`, err.line, err.column, path);
    }
    throw err;
  }
}

/**
 * Converts the linted document; when that fails and the linter already found problems, those
 * problems (every one of them, with positions) are the error, not just the first the conversion hit.
 */
function convert<T>(path: string, lints: string[], build: () => T): T {
  try {
    return withFile(path, build);
  } catch (err) {
    if (err instanceof ConfigError && lints.length > 0) {
      throw new ConfigError(lints.join('\n'), undefined, undefined, path);
    }
    throw err;
  }
}

/** A service config file (`-c`); `withStreamSections: false` for a streams-mode `-o` file. */
export async function loadConfigFile(
  path: string,
  options: LoadOptions & { withStreamSections?: boolean },
): Promise<LoadedConfig<ServiceConfig>> {
  return loadPrepared(path, await prepare(path, options), options);
}

/** A service config given as text (the library's StreamBuilder); `name` stands for its file in errors. */
export async function loadConfigText(
  text: string,
  name: string,
  options: LoadOptions,
): Promise<LoadedConfig<ServiceConfig>> {
  return loadPrepared(name, await prepareText(text, name, options), options);
}

function loadPrepared(
  path: string,
  { parsed, posted, envLints, lintable }: PreparedFile,
  options: LoadOptions & { withStreamSections?: boolean },
): LoadedConfig<ServiceConfig> {
  const lints = [...envLints, ...(lintable ? lintServiceConfig(parsed, options) : [])].map((l) =>
    formatFileLint(path, l),
  );
  const raw = withFile(path, () => yamlToValue(parsed));
  const lines = buildLineIndex(parsed);
  const config = convert(path, lints, () =>
    normaliseAll({ provider: options.provider, lines }, (ctx) =>
      toServiceConfig(raw, ctx, { withStreamSections: options.withStreamSections }),
    ),
  );
  return { config, raw, posted: posted(), lints, lines };
}

/** A streams-mode stream file: stream sections plus an allowed `tests` section. */
export async function loadStreamFile(
  path: string,
  options: LoadOptions,
): Promise<LoadedConfig<StreamConfig>> {
  const { parsed, posted, envLints, lintable } = await prepare(path, options);
  const lints = [
    ...envLints,
    ...(lintable ? lintStreamConfig(parsed, { ...options, allowTests: true }) : []),
  ].map((l) => formatFileLint(path, l));
  const raw = withFile(path, () => yamlToValue(parsed));
  const lines = buildLineIndex(parsed);
  const config = convert(path, lints, () =>
    normaliseAll({ provider: options.provider, lines }, (ctx) => toStreamConfig(raw, ctx)),
  );
  return { config, raw, posted: posted(), lints, lines };
}
