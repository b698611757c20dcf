// The top-level sections of a service config file, with nekton's defaults (root path /nekton,
// prometheus metrics, @service nekton): the reference's `_service` fields (extracted into
// reference/observability.json) with nekton's differences applied (service_overrides.ts).
import { fieldsFromReference, REFERENCE } from './reference_fields.js';
import { applyOverrides, SERVICE_OVERRIDES } from './service_overrides.js';
import type { FieldSpec } from './spec.js';

export const SERVICE_FIELDS: FieldSpec[] = fieldsFromReference(
  applyOverrides(REFERENCE.service, SERVICE_OVERRIDES),
);

/** The sections a stream config may hold (streams mode, API bodies). */
export const STREAM_SECTIONS = ['input', 'buffer', 'pipeline', 'output'] as const;

export const RESOURCE_SECTIONS = [
  'input_resources',
  'processor_resources',
  'output_resources',
  'cache_resources',
  'rate_limit_resources',
] as const;

function pick(names: readonly string[]): FieldSpec[] {
  return SERVICE_FIELDS.filter((f) => names.includes(f.name));
}

/** Fields of a stream config; `tests` is allowed beside them in stream files. */
export function streamFields(options: { allowTests?: boolean } = {}): FieldSpec[] {
  return pick(options.allowTests ? [...STREAM_SECTIONS, 'tests'] : STREAM_SECTIONS);
}

/** nekton's own section of the streams-mode observability file (the reference has none). */
export const STREAMS_MODE_FIELD: FieldSpec = {
  name: 'streams',
  type: 'object',
  kind: 'scalar',
  description: 'Settings of streams mode.',
  optional: true,
  children: [
    {
      name: 'store',
      type: 'string',
      kind: 'scalar',
      description:
        'Where streams and resources created over the API are kept across restarts: `file:DIR`, `postgres://...` or `nats://HOST:PORT/BUCKET`. `--store` overrides it.',
      optional: true,
      examples: ['file:/var/lib/nekton/streams', 'nats://127.0.0.1:4222/nekton_streams'],
    },
    {
      name: 'cluster',
      type: 'object',
      kind: 'scalar',
      description:
        'Run as one node of a fleet sharing the `store` (PostgreSQL or NATS): each stream runs on one node at a time, held by a lease. The `--cluster`, `--node-id`, `--advertise-address` and `--lease-ttl` flags override these.',
      optional: true,
      children: [
        { name: 'enabled', type: 'bool', kind: 'scalar', description: 'Join the fleet.', default: false },
        {
          name: 'node_id',
          type: 'string',
          kind: 'scalar',
          description: "This node's name in the fleet; defaults to the host name and the HTTP port.",
          default: '',
        },
        {
          name: 'advertise_address',
          type: 'string',
          kind: 'scalar',
          description:
            'The `host:port` other nodes forward requests to; defaults to the HTTP address (with the host name when it listens on all interfaces).',
          default: '',
        },
        {
          name: 'lease_ttl',
          type: 'string',
          kind: 'scalar',
          description:
            "How long a stream's lease lasts without renewal: after a node dies its streams start elsewhere within this time. Renewed every quarter of it.",
          default: '10s',
        },
      ],
    },
  ],
};

/** Fields of a service config; the streams-mode observability file has no stream sections but a `streams` one. */
export function serviceFields(options: { withStreamSections?: boolean } = {}): FieldSpec[] {
  if (options.withStreamSections ?? true) return SERVICE_FIELDS;
  return [
    ...SERVICE_FIELDS.filter((f) => !(STREAM_SECTIONS as readonly string[]).includes(f.name)),
    STREAMS_MODE_FIELD,
  ];
}
