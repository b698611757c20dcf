// `nekton plugin init NAME`, and the hook that loads `--plugin` modules before any command reads
// the component registry.
import type { Command } from 'commander';

export function addPluginCommands(program: Command, pluginsOf: (action: Command) => string[]): void {
  program
    .command('plugin')
    .description('work with plugin packages')
    .command('init <name>')
    .description('create a plugin package (a processor, its test and a README) in the directory <name>')
    .action(async (name: string) => {
      const { initPlugin } = await import('./plugin_init.js');
      process.exitCode = await initPlugin(name);
    });

  // Plugins register before any command reads the component registry.
  program.hook('preAction', async (_program, action) => {
    const plugins = pluginsOf(action);
    if (plugins.length === 0) return;
    const { loadPluginModules } = await import('../api/plugin_loading.js');
    await loadPluginModules(plugins);
  });
}
