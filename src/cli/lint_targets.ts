// The files `nekton lint` checks (path forms in path_arguments.ts); a form that names no config
// file is reported by name, as Benthos does.
import { ConfigError } from '../engine/errors.js';
import { filesOfPathArgument, type PathForm } from './path_arguments.js';

const CONFIG_EXTENSION = /\.(ya?ml|json)$/;

const NOTHING_FOUND: Record<Exclude<PathForm, 'file'>, string> = {
  tree: 'no .yaml, .yml or .json files found',
  pattern: 'pattern did not match any files',
  directory: 'directory holds no .yaml, .yml or .json files',
};

/** The files one argument names, sorted; an argument that names no config file is a ConfigError. */
export async function lintTargets(arg: string): Promise<string[]> {
  const { form, files } = await filesOfPathArgument(arg, CONFIG_EXTENSION);
  if (form !== 'file' && files.length === 0) throw new ConfigError(`${arg}: ${NOTHING_FOUND[form]}`);
  return files;
}
