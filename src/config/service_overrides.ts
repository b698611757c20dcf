// Where nekton's service sections deliberately differ from the reference's. Everything else in
// SERVICE_FIELDS comes from the extracted reference data unchanged.
import type { ReferenceField } from './reference_fields.js';

export type FieldOverride =
  /** Change facts of the field at `path` (dot-separated names). */
  | { path: string; set: Partial<Omit<ReferenceField, 'name' | 'children'>> }
  /** nekton has no such field: lint reports it as not recognised. */
  | { path: string; remove: true }
  /** nekton's own fields, placed after the sibling `path` names. */
  | { path: string; insertAfter: ReferenceField[] };

const DURATION = { type: 'string', kind: 'scalar', advanced: true } as const;

export const SERVICE_OVERRIDES: FieldOverride[] = [
  // nekton's own name where the reference says benthos.
  { path: 'http.root_path', set: { default: '/nekton' } },
  { path: 'logger.static_fields', set: { default: { '@service': 'nekton' } } },
  // Go's ReadHeaderTimeout/ReadTimeout are not configurable in the reference; nekton's listeners
  // need limits of their own, and one body size limit for every listener.
  {
    path: 'http.key_file',
    insertAfter: [
      { name: 'read_header_timeout', ...DURATION, default: '10s' },
      { name: 'read_timeout', ...DURATION, default: '60s' },
      { name: 'max_body_size', type: 'int', kind: 'scalar', default: 4194304, advanced: true },
    ],
  },
  // nekton's own: plugin modules (paths relative to the config file, or package names) loaded
  // before the config is linted, so their components lint and build like built-ins.
  {
    path: 'shutdown_timeout',
    insertAfter: [{ name: 'plugins', type: 'string', kind: 'array', default: [], advanced: true }],
  },
  // With no config nekton reads stdin and writes stdout (the reference: inproc and reject).
  { path: 'input', set: { default: { stdin: {} } } },
  { path: 'output', set: { default: { stdout: {} } } },
  // The reference records the metrics wrapper's `mapping` key in the default; nekton does not.
  { path: 'metrics', set: { default: { prometheus: {} } } },
  // nekton's own condition (`nekton test`): the message must be valid against this schema.
  {
    path: 'tests.output_batches.file_json_contains',
    insertAfter: [{ name: 'json_schema', type: 'unknown', kind: 'scalar', optional: true, advanced: true }],
  },
  // The redpanda section's durations, checked by lint at their line like the components' own.
  ...[
    'metadata_max_age',
    'request_timeout_overhead',
    'conn_idle_timeout',
    'timeout',
    'record_delivery_timeout',
  ].map((name): FieldOverride => ({ path: `redpanda.${name}`, set: { check: 'duration' } })),
];

/** A copy of `fields` with the overrides applied; throws if an override's path is not there. */
export function applyOverrides(fields: readonly ReferenceField[], overrides: readonly FieldOverride[]) {
  const copy: ReferenceField[] = structuredClone(fields) as ReferenceField[];
  for (const override of overrides) {
    const names = override.path.split('.');
    const last = names.pop() as string;
    let siblings = copy;
    for (const name of names) siblings = siblings.find((f) => f.name === name)?.children ?? [];
    const index = siblings.findIndex((f) => f.name === last);
    if (index < 0) throw new Error(`service override: no field ${override.path} in the reference data`);
    if ('set' in override) Object.assign(siblings[index], override.set);
    else if ('remove' in override) siblings.splice(index, 1);
    else siblings.splice(index + 1, 0, ...override.insertAfter);
  }
  return copy;
}
