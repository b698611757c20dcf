// The streams-mode observability config (`-o`, or legacy `-c`): the service sections without the
// stream ones. Without a file the defaults apply (with any `--set` overrides).
import { access } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ConfigSource } from '../config/config_source.js';
import { formatFileLint } from '../config/lint.js';
import { lintServiceConfig } from '../config/lint_config.js';
import { loadConfigFile } from '../config/loader.js';
import type { SchemaProvider } from '../config/schema.js';
import { type ServiceConfig, toServiceConfig } from '../config/service_config.js';
import { applySetOverrides, parseSetOverride } from '../config/set_overrides.js';
import { buildLineIndex, parseYaml, yamlToValue } from '../config/yaml_document.js';

/** Looked for, in order, when neither `-o` nor `-c` is given (the reference's are product-named). */
export const DEFAULT_OBSERVABILITY_FILES = ['/nekton.yaml', '/etc/nekton/config.yaml', '/etc/nekton.yaml'];

export interface LoadedObservability {
  config: ServiceConfig;
  raw: unknown;
  /** Before env interpolation: what `/debug/config` shows (scrubbed). */
  posted: unknown;
  lints: string[];
  /** Directory relative paths (Bloblang imports) resolve against. */
  baseDir: string;
  /** The file (or `--set` without one), for errors found while building from it. */
  source: ConfigSource;
}

export async function loadObservability(options: {
  path: string | undefined;
  provider: SchemaProvider;
  sets: readonly string[];
  envFiles: readonly string[];
}): Promise<LoadedObservability> {
  const path = options.path ?? (await firstExisting(DEFAULT_OBSERVABILITY_FILES));
  if (path) {
    const loaded = await loadConfigFile(path, { ...options, withStreamSections: false });
    return { ...loaded, baseDir: dirname(resolve(path)), source: { file: path, lines: loaded.lines } };
  }
  const parsed = parseYaml('{}');
  applySetOverrides(parsed, options.sets.map(parseSetOverride));
  const lints = lintServiceConfig(parsed, { provider: options.provider, withStreamSections: false });
  const raw = yamlToValue(parsed);
  const lines = buildLineIndex(parsed);
  const config = toServiceConfig(raw, { provider: options.provider, lines }, { withStreamSections: false });
  return {
    config,
    raw,
    posted: raw,
    lints: lints.map((l) => formatFileLint('--set', l)),
    baseDir: process.cwd(),
    source: { file: '--set', lines },
  };
}

async function firstExisting(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    try {
      await access(path);
      return path;
    } catch {
      // not there: try the next one
    }
  }
  return undefined;
}
