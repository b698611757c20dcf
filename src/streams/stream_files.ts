// Loading stream files into definitions the manager can run, with their lints.
import { loadStreamFile } from '../config/loader.js';
import type { SchemaProvider } from '../config/schema.js';
import type { StreamFile } from './files.js';
import type { StreamDefinition } from './manager.js';

export interface LoadedStreamFile extends StreamFile {
  definition: StreamDefinition;
  /** `<path>(<line>,<col>) <message>`. */
  lints: string[];
}

export interface StreamFileOptions {
  provider: SchemaProvider;
  envFiles: readonly string[];
  /** Whether the observability config has a redpanda section (redpanda_common needs one). */
  redpandaSection?: boolean;
}

export async function loadStreamDefinition(
  file: StreamFile,
  options: StreamFileOptions,
): Promise<LoadedStreamFile> {
  const loaded = await loadStreamFile(file.path, {
    provider: options.provider,
    envFiles: options.envFiles,
    redpandaSection: options.redpandaSection,
  });
  return {
    ...file,
    definition: { config: loaded.config, raw: loaded.raw, posted: loaded.posted, fromFile: true },
    lints: loaded.lints,
  };
}
