// Components added by plugins (the public register* functions, `--plugin`, `plugins:`). The
// built-in registry stays immutable: the process registry is built from both lists once plugins
// have loaded (process_registry.ts).
import * as all from '../components/all.js';
import type { AnyComponentSpec } from '../config/spec.js';

export const builtinSpecs: readonly AnyComponentSpec[] = Object.values(all);

const added: AnyComponentSpec[] = [];

/** Adds a plugin component; a name a built-in or an earlier plugin already uses is refused. */
export function addPluginSpec(spec: AnyComponentSpec): void {
  if (!/^[a-z][a-z0-9_]*$/.test(spec.name)) {
    throw new Error(`plugin ${spec.kind} name "${spec.name}" must be snake_case (a-z, 0-9, _)`);
  }
  if (builtinSpecs.some((s) => s.kind === spec.kind && s.name === spec.name)) {
    throw new Error(`a plugin cannot register ${spec.kind} ${spec.name}: a built-in has that name`);
  }
  if (added.some((s) => s.kind === spec.kind && s.name === spec.name)) {
    throw new Error(`${spec.kind} ${spec.name} is registered twice by plugins`);
  }
  added.push(spec);
}

export function pluginSpecs(): readonly AnyComponentSpec[] {
  return added;
}
