// The `plugins:` list of a config file, read before the file is linted (its components must be
// registered by then). Environment variables in the file are expanded as when it is loaded.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { envLookup, interpolateEnv } from '../config/env_interpolation.js';

export interface ConfigPlugins {
  plugins: string[];
  /** Relative plugin paths resolve against the config file's directory. */
  baseDir: string;
}

/** The plugins a config file names; none when the file cannot be read or parsed (loading says why). */
export async function pluginsOfConfigFile(path: string | undefined): Promise<ConfigPlugins> {
  const none = { plugins: [], baseDir: process.cwd() };
  if (!path) return none;
  let document: unknown;
  try {
    const text = await readFile(path, 'utf8');
    if (!/^plugins\s*:/m.test(text)) return none;
    document = parse(interpolateEnv(text, envLookup(process.env)).text);
  } catch {
    return none;
  }
  const list = (document as { plugins?: unknown } | null)?.plugins;
  const plugins = Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  return { plugins, baseDir: dirname(resolve(path)) };
}
