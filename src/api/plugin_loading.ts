// Loading plugin modules from the CLI: this nekton's API is installed for them first (so their
// `import 'nekton'` finds it), then each module is imported. The API's modules load only when
// there is a plugin: a plain run starts without them.
import { pluginsOfConfigFile } from '../plugins/config_plugins.js';
import { loadPlugins } from '../plugins/load_plugins.js';

/** `--plugin` values: paths relative to the working directory, or package names. */
export async function loadPluginModules(specifiers: readonly string[]): Promise<void> {
  if (specifiers.length === 0) return;
  await import('./public_api.js');
  await loadPlugins(specifiers, process.cwd());
}

/** The `plugins:` list of a config file, relative to the file. */
export async function loadConfigFilePlugins(path: string | undefined): Promise<void> {
  const { plugins, baseDir } = await pluginsOfConfigFile(path);
  if (plugins.length === 0) return;
  await import('./public_api.js');
  await loadPlugins(plugins, baseDir);
}
