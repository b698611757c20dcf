// The three lint entry points: a whole service config file, a stream config (streams mode and
// API bodies), and a single component (`POST /resources/{type}/{id}`).
import { isMap, isScalar, type Node, type Pair } from 'yaml';
import { lintHttpAttachment } from './http_attach_lint.js';
import { type Lint, lintAt } from './lint.js';
import { ConfigLinter, type LintOptions } from './linter.js';
import { lintRedpandaSection, lintRedpandaUsers } from './redpanda_section_lint.js';
import type { ConfigKind } from './schema.js';
import { serviceFields, streamFields } from './service_spec.js';
import type { ParsedYaml } from './yaml_document.js';

export type { LintOptions } from './linter.js';

function emptyDocument(parsed: ParsedYaml): boolean {
  return parsed.doc.contents === null;
}

/** A service config file: every `_service` section (minus the stream ones in streams mode). */
export function lintServiceConfig(
  parsed: ParsedYaml,
  options: LintOptions & { withStreamSections?: boolean },
): Lint[] {
  if (emptyDocument(parsed)) return [];
  const linter = new ConfigLinter(parsed, options);
  linter.fields(serviceFields({ withStreamSections: options.withStreamSections }), linter.root);
  lintHttpAttachment(linter);
  lintRedpandaSection(linter, options.redpandaSection);
  return linter.result();
}

/** A stream config: only input, buffer, pipeline, output (and `tests` in stream files). */
export function lintStreamConfig(
  parsed: ParsedYaml,
  options: LintOptions & { allowTests?: boolean },
): Lint[] {
  if (emptyDocument(parsed)) return [lintAt(1, 'expected object value, got !!null')];
  const linter = new ConfigLinter(parsed, options);
  linter.fields(streamFields({ allowTests: options.allowTests }), linter.root);
  if (options.redpandaSection !== undefined) lintRedpandaUsers(linter, options.redpandaSection);
  return linter.result();
}

/** One component of the given kind, e.g. a cache body `memory: {...}`. */
export function lintComponentConfig(parsed: ParsedYaml, kind: ConfigKind, options: LintOptions): Lint[] {
  const linter = new ConfigLinter(parsed, options);
  linter.component(kind, linter.root);
  if (options.redpandaSection !== undefined) lintRedpandaUsers(linter, options.redpandaSection);
  return linter.result();
}

/** Each entry of a `POST /streams` body `{<id>: <stream config>}`, linted on its own (labels are per stream). */
export function lintStreamsBody(parsed: ParsedYaml, options: LintOptions): { id: string; lints: Lint[] }[] {
  const root = parsed.doc.contents as Node | null;
  if (!isMap(root)) return [];
  return (root.items as Pair<Node, Node | null>[]).map((pair) => {
    const linter = new ConfigLinter(parsed, options);
    linter.fields(streamFields(), pair.value);
    if (options.redpandaSection !== undefined) lintRedpandaUsers(linter, options.redpandaSection);
    return { id: isScalar(pair.key) ? String(pair.key.value) : String(pair.key), lints: linter.result() };
  });
}
