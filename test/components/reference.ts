// Compares a spec's fields with the reference's (components.json): names, types, kinds,
// defaults, options and flags must match exactly.
import { readFileSync } from 'node:fs';
import { withFieldDefaults } from '../../src/components/scanners/scanner.js';
import {
  type AnyField,
  type ComponentSpec,
  type ConfigOf,
  type FieldParseContext,
  type FieldSpec,
  parseFields,
} from '../../src/config/spec.js';

interface RefField {
  name?: string;
  type: string;
  kind: string;
  default?: unknown;
  optional?: boolean;
  advanced?: boolean;
  deprecated?: boolean;
  secret?: boolean;
  interpolated?: boolean;
  bloblang?: boolean;
  options?: string[];
  children?: RefField[];
}

type Reference = Record<string, Record<string, { fields: RefField[]; root?: RefField }>>;

// A copy of the reference kept in the repository (see test/fixtures/reference/SOURCE.md).
const referencePath = new URL('../fixtures/reference/components.json', import.meta.url).pathname;
export const reference: Reference = JSON.parse(readFileSync(referencePath, 'utf8')) as Reference;

function compare(path: string, ours: FieldSpec | undefined, ref: RefField, problems: string[]): void {
  if (!ours) {
    problems.push(`${path}: missing`);
    return;
  }
  const checks: [string, unknown, unknown][] = [
    ['type', ours.type, ref.type],
    ['kind', ours.kind, ref.kind],
    ['default', JSON.stringify(ours.default), JSON.stringify(ref.default)],
    ['options', JSON.stringify(ours.options), JSON.stringify(ref.options)],
  ];
  for (const flag of ['optional', 'advanced', 'deprecated', 'secret', 'interpolated', 'bloblang'] as const) {
    checks.push([flag, Boolean(ours[flag]), Boolean(ref[flag])]);
  }
  for (const [what, a, b] of checks) if (a !== b) problems.push(`${path}.${what}: ours ${a}, reference ${b}`);
  compareList(path, ours.children ?? [], ref.children ?? [], problems);
}

function compareList(path: string, ours: FieldSpec[], ref: RefField[], problems: string[]): void {
  const names = (l: { name?: string }[]) => l.map((f) => f.name).join(',');
  if (names(ours) !== names(ref)) problems.push(`${path}: fields ${names(ours)} != ${names(ref)}`);
  for (const r of ref)
    compare(
      `${path}.${r.name}`,
      ours.find((f) => f.name === r.name),
      r,
      problems,
    );
}

export function referenceProblems(spec: ComponentSpec<unknown, unknown>): string[] {
  const ref = reference[spec.kind]?.[spec.name];
  if (!ref) return [`${spec.kind} ${spec.name} is not in the reference`];
  const problems: string[] = [];
  if (ref.root) compare(`${spec.name}.<root>`, spec.root, { ...ref.root, name: '' }, problems);
  else compareList(spec.name, spec.fields, ref.fields, problems);
  return problems;
}

/** A component config with the spec's defaults filled in, as the engine will hand it over. */
export function configOf<T>(spec: ComponentSpec<T, unknown>, given: Record<string, unknown> = {}): T {
  return withFieldDefaults(spec.fields, given) as T;
}

/** Like configOf, then parsed by the fields as a `defineComponent` factory receives it (ms, compiled...). */
export function parsedConfigOf<const Fields extends readonly AnyField[]>(
  fields: Fields,
  ctx: FieldParseContext,
  given: Record<string, unknown> = {},
): ConfigOf<Fields> {
  return parseFields(fields, withFieldDefaults([...fields], given), ctx);
}
