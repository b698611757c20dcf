// `nekton list [KIND...]`: the components (and Bloblang functions and methods) this build knows,
// as text, json, a JSON Schema or CUE of the config, as the reference's `list` prints them.
import { lookupFunction, lookupMethod } from '../bloblang/library.js';
import type { ComponentStatus } from '../config/spec.js';
import { errorMessage } from '../engine/errors.js';
import type { Registry } from '../engine/registry.js';
import { templatesRegistry } from '../templates/templates_registry.js';
import { exitQuietlyWhenStdoutCloses } from './closed_stdout.js';
import { LIST_KINDS, type ListKind, listKindOf, namesOf } from './list_kinds.js';

const FORMATS = ['text', 'json', 'jsonschema', 'cue'];
const STATUSES: readonly ComponentStatus[] = ['stable', 'beta', 'experimental', 'deprecated'];

export interface ListOptions {
  format: string;
  status?: string;
  /** `-t` template globs: their components are listed with the built-ins. */
  templates?: string[];
}

export async function listComponents(args: readonly string[], options: ListOptions): Promise<number> {
  exitQuietlyWhenStdoutCloses();
  const fail = (message: string) => {
    process.stderr.write(`${message}\n`);
    return 1;
  };
  if (!FORMATS.includes(options.format)) {
    return fail(`unknown format '${options.format}': expected one of ${FORMATS.join(', ')}`);
  }
  const status = options.status === undefined || options.status === '' ? undefined : options.status;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
    return fail(`unknown status '${status}': expected one of ${STATUSES.join(', ')}`);
  }
  if (options.format === 'jsonschema' || options.format === 'cue') {
    return printSchema(args, options.format);
  }
  const kinds: ListKind[] = [];
  for (const arg of args) {
    const kind = listKindOf(arg);
    if (!kind) return fail(`unknown component kind '${arg}': expected one of ${LIST_KINDS.join(', ')}`);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  let registry: Registry | undefined;
  try {
    registry = await templatesRegistry(options.templates ?? [], false);
  } catch (err) {
    return fail(errorMessage(err));
  }
  const shown = LIST_KINDS.filter((k) => kinds.length === 0 || kinds.includes(k));
  const byKind = Object.fromEntries(
    shown.map((k) => [k, namesOf(k, status as ComponentStatus | undefined, registry)]),
  );
  if (options.format === 'json') {
    process.stdout.write(`${JSON.stringify(byKind)}\n`);
    return 0;
  }
  const sections = Object.entries(byKind).map(
    ([k, names]) => `${title(k)}:\n${names.map((n) => `  - ${n}\n`).join('')}${unavailableNote(k)}`,
  );
  process.stdout.write(sections.join('\n'));
  return 0;
}

/** Reference components nekton will not have, and why: listed so nobody searches for them. */
const UNAVAILABLE: Record<string, Record<string, string>> = {
  processors: {
    awk: 'no faithful awk interpreter exists for Node.js (the reference embeds GoAWK); use mapping or javascript',
  },
};

function unavailableNote(kind: string): string {
  const entries = Object.entries(UNAVAILABLE[kind] ?? {});
  if (entries.length === 0) return '';
  return `  Not available in nekton:\n${entries.map(([name, why]) => `  - ${name}: ${why}\n`).join('')}`;
}

/** `rate-limits` -> `Rate Limits`. */
function title(kind: string): string {
  return kind
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The config's schema; with `bloblang-functions` or `bloblang-methods` (optionally followed by
 * names), the parameters of those functions or methods instead.
 */
async function printSchema(args: readonly string[], format: 'jsonschema' | 'cue'): Promise<number> {
  const bloblangKind = args
    .map(listKindOf)
    .find((k) => k === 'bloblang-functions' || k === 'bloblang-methods');
  if (format === 'jsonschema' && bloblangKind) {
    const wanted = args.filter((a) => listKindOf(a) !== bloblangKind);
    const names = namesOf(bloblangKind).filter((n) => wanted.length === 0 || wanted.includes(n));
    const lookup = bloblangKind === 'bloblang-functions' ? lookupFunction : lookupMethod;
    const specs = names.map((name) => ({ name, params: lookup(name)?.params ?? [] }));
    process.stdout.write(`${JSON.stringify({ [bloblangKind]: specs })}\n`);
    return 0;
  }
  if (format === 'jsonschema') {
    const { configJsonSchema } = await import('./list_json_schema.js');
    process.stdout.write(`${JSON.stringify(configJsonSchema())}\n`);
  } else {
    const { configCue } = await import('./list_cue.js');
    process.stdout.write(configCue());
  }
  return 0;
}
