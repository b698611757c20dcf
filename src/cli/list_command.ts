// `nekton list [kind]`: the components this build knows, by kind.
import { registry } from '../components/registry.js';
import { COMPONENT_KINDS, type ComponentKind } from '../config/spec.js';

export function listComponents(kind: string | undefined, format: string): number {
  const normalised = kind?.replace(/s$/, '').replace('-', '_');
  if (normalised !== undefined && !(COMPONENT_KINDS as readonly string[]).includes(normalised)) {
    process.stderr.write(`unknown component kind '${kind}': expected one of ${COMPONENT_KINDS.join(', ')}\n`);
    return 1;
  }
  const kinds = normalised ? [normalised as ComponentKind] : COMPONENT_KINDS;
  const byKind: Record<string, string[]> = {};
  for (const k of kinds) byKind[k] = registry.list(k).map((s) => s.name);
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(byKind)}\n`);
    return 0;
  }
  const sections = Object.entries(byKind)
    .filter(([, names]) => names.length > 0)
    .map(([k, names]) => `${k.replace('_', ' ')}s:\n${names.map((n) => `  - ${n}`).join('\n')}`);
  process.stdout.write(`${sections.join('\n\n')}\n`);
  return 0;
}
