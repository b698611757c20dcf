// Loads plugin modules (`--plugin`, `plugins:`): ES modules that register components when
// imported. A module with a default export function is also called with the API object of the
// nekton that loads it, so a plugin works even when its own `import 'nekton'` would find another
// copy. A module that cannot be found, fails to load or fails to register is a ConfigError naming it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, errorMessage } from '../engine/errors.js';
import { pluginHost } from './plugin_host.js';

const loaded = new Set<string>();

/** `specifier`: a file (relative to `baseDir`) or a package name (resolved from `baseDir`). */
export async function loadPlugins(specifiers: readonly string[], baseDir = process.cwd()): Promise<void> {
  for (const specifier of specifiers) await loadPlugin(specifier, baseDir);
}

async function loadPlugin(specifier: string, baseDir: string): Promise<void> {
  const url = resolvePlugin(specifier, baseDir);
  if (loaded.has(url)) return;
  loaded.add(url);
  try {
    const module = (await importPluginModule(url)) as { default?: unknown };
    if (typeof module.default === 'function') await module.default(pluginHost());
  } catch (err) {
    throw new ConfigError(`plugin ${specifier}: ${errorMessage(err)}`);
  }
}

function resolvePlugin(specifier: string, baseDir: string): string {
  const path = resolve(baseDir, specifier);
  // A name that is not a file there is a package (`my-plugin`, `@scope/plugin/sub`).
  const isPath = specifier.startsWith('.') || isAbsolute(specifier) || existsSync(path);
  if (isPath) {
    if (!existsSync(path)) throw new ConfigError(`plugin ${specifier}: ${path} does not exist`);
    return pathToFileURL(path).href;
  }
  try {
    return pathToFileURL(createRequire(join(baseDir, 'noop.js')).resolve(specifier)).href;
  } catch {
    throw new ConfigError(`plugin ${specifier}: no such file or package (looked from ${baseDir})`);
  }
}

/**
 * import() of a plugin file. In the bundled CLI, scripts/bundle.mjs turns this one call into the
 * loader bin/nekton passes in (a bundle cannot import() by itself there).
 */
function importPluginModule(pluginModuleUrl: string): Promise<unknown> {
  return import(pluginModuleUrl);
}
