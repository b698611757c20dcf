// The README's list of reference components nekton lacks, computed from the registry (built-in
// components), the metrics exporters and tracers lint accepts, and the reference's list
// (test/fixtures/reference/components.json, from shared/reference/components.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registry } from '../../src/components/registry.js';
import { RUNNABLE_METRICS, RUNNABLE_TRACERS } from '../../src/config/observability_support.js';
import { REFERENCE } from '../../src/config/reference_fields.js';
import { SERVICE_FIELDS } from '../../src/config/service_spec.js';

const KINDS: [string, string][] = [
  ['input', 'inputs'],
  ['output', 'outputs'],
  ['processor', 'processors'],
  ['cache', 'caches'],
  ['rate_limit', 'rate limits'],
  ['buffer', 'buffers'],
  ['metrics', 'metrics exporters'],
  ['tracer', 'tracers'],
  ['scanner', 'scanners'],
];

function referenceNames(): Record<string, string[]> {
  const path = join(import.meta.dirname, '..', 'fixtures', 'reference', 'components.json');
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(KINDS.map(([kind]) => [kind, Object.keys(data[kind] ?? {}).sort()]));
}

function nektonNames(kind: string): Set<string> {
  if (kind === 'metrics') return new Set(RUNNABLE_METRICS);
  if (kind === 'tracer') return new Set(RUNNABLE_TRACERS);
  return new Set(
    registry
      .list()
      .filter((spec) => spec.kind === kind)
      .map((spec) => spec.name),
  );
}

/** Top-level sections of the reference's service config that nekton's service spec leaves out. */
function missingSections(): string[] {
  const ours = new Set(SERVICE_FIELDS.map((f) => f.name));
  return REFERENCE.service.map((f) => f.name).filter((name) => !ours.has(name));
}

export function missingComponentsBlock(): string {
  const reference = referenceNames();
  let total = 0;
  let have = 0;
  const lines: string[] = [];
  for (const [kind, label] of KINDS) {
    const names = reference[kind] ?? [];
    const ours = nektonNames(kind);
    const missing = names.filter((name) => !ours.has(name));
    total += names.length;
    have += names.length - missing.length;
    const list = missing.length === 0 ? 'none missing' : missing.map((n) => `\`${n}\``).join(', ');
    lines.push(`- **${label}** (${names.length - missing.length} of ${names.length}): ${list}`);
  }
  const sections = missingSections().map((name) => `the top-level \`${name}:\` section`);
  const also = sections.length === 0 ? '' : `\nAlso missing: ${sections.join(', ')}.\n`;
  return `nekton has **${have} of the reference's ${total} components** (counted by \`scripts/missing-components.mts\` from the registry against the reference's component list; many of the rest are cloud or AI services). Missing, by kind:\n\n${lines.join('\n')}\n${also}`;
}
