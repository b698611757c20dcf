// `-r/--resources GLOB`: extra files whose `*_resources` sections join the service's resources,
// in normal mode and streams mode alike. As in Benthos, a pattern that names no file is an error.

import type { ConfigSource } from '../config/config_source.js';
import { loadConfigFile } from '../config/loader.js';
import { filesOfPattern } from '../config/path_patterns.js';
import type { SchemaProvider } from '../config/schema.js';
import type { ResourcesConfig } from '../config/service_config.js';
import { ConfigError } from '../engine/errors.js';

export interface ResourceFile {
  config: ResourcesConfig;
  /** Where its resources were written, for errors found while building them. */
  source: ConfigSource;
  /** `FILE(line,col) message`, like the main config's lints. */
  lints: string[];
}

/** The files of each pattern, sorted per pattern; a plain path is kept (a missing file fails by name). */
export async function resolveResourceFiles(patterns: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    const matched = await filesOfPattern(pattern);
    if (matched.length === 0) throw new ConfigError(`resources pattern ${pattern} did not match any files`);
    files.push(...matched);
  }
  return files;
}

/** Reads every `-r` file; only its resource sections are used, the rest is linted as usual. */
export async function loadResourceFiles(
  patterns: readonly string[],
  options: {
    provider: SchemaProvider;
    envFiles?: readonly string[];
    /** Whether the main config has a redpanda section (its redpanda_common resources need one). */
    redpandaSection?: boolean;
  },
): Promise<ResourceFile[]> {
  const files: ResourceFile[] = [];
  for (const file of await resolveResourceFiles(patterns)) {
    const loaded = await loadConfigFile(file, {
      provider: options.provider,
      envFiles: options.envFiles,
      withStreamSections: false,
      redpandaSection: options.redpandaSection,
    });
    files.push({ config: loaded.config, source: { file, lines: loaded.lines }, lints: loaded.lints });
  }
  return files;
}
