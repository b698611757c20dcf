// JSON Schemas of the streams API's bodies, for the route declarations (api_routes.ts).
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: descriptions name the ${VAR} syntax
import type { JsonSchema } from '../engine/route_declaration.js';

export const STREAM_SUMMARY: JsonSchema = {
  type: 'object',
  required: ['active', 'uptime', 'uptime_str'],
  properties: {
    active: { type: 'boolean', description: 'false once the stream has finished.' },
    uptime: { type: 'number', description: 'Seconds, nanosecond resolution.' },
    uptime_str: { type: 'string', description: 'The same as a Go duration, e.g. `1m30s`.' },
  },
};

const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' };

export const STREAM_DETAIL: JsonSchema = {
  type: 'object',
  required: ['active', 'uptime', 'uptime_str', 'config', 'status', 'state', 'since', 'not_ready'],
  properties: {
    ...(STREAM_SUMMARY.properties as object),
    config: { type: 'object', description: 'The config as posted, `${VAR}` unexpanded, secrets scrubbed.' },
    status: {
      type: 'object',
      required: ['input_connected', 'output_connected', 'last_error'],
      properties: {
        input_connected: { type: 'boolean' },
        output_connected: { type: 'boolean' },
        last_error: { type: ['string', 'null'] },
      },
    },
    state: { enum: ['running', 'paused', 'finished', 'failed'] },
    since: { type: 'string', format: 'date-time', description: 'When the state began.' },
    not_ready: {
      type: 'array',
      description: 'Each input or output not connected now: why the stream is not ready.',
      items: {
        type: 'object',
        required: ['component', 'label', 'error', 'since'],
        properties: {
          component: { type: 'string', description: 'Its path, e.g. `input` or `output.broker.outputs.1`.' },
          label: { type: 'string' },
          error: { type: ['string', 'null'] },
          since: { ...NULLABLE_TIME, description: 'When it went down.' },
        },
      },
    },
  },
};

export const STREAM_CONFIG: JsonSchema = {
  type: 'object',
  description: 'A stream config: `input`, `buffer`, `pipeline`, `output`.',
  properties: {
    input: { type: 'object' },
    buffer: { type: 'object' },
    pipeline: { type: 'object' },
    output: { type: 'object' },
  },
};

export const LINT_ERRORS: JsonSchema = {
  type: 'object',
  required: ['linting_errors'],
  properties: {
    linting_errors: {
      type: 'array',
      items: { type: 'string', description: '`(<line>,<col>) <message>`' },
    },
  },
};

export const RESOURCE_TYPE: JsonSchema = {
  enum: ['cache', 'input', 'output', 'processor', 'rate_limit'],
};

export const RESOURCE_CONFIGS: JsonSchema = {
  type: 'object',
  description: 'Name → config (as posted, secrets scrubbed).',
  additionalProperties: { type: 'object' },
};

export const RESOURCE_IN_USE: JsonSchema = {
  type: 'object',
  required: ['error', 'streams'],
  properties: {
    error: { type: 'string' },
    streams: { type: 'array', items: { type: 'string' }, description: 'The streams that use it.' },
  },
};

export const STREAM_STATS: JsonSchema = {
  type: 'object',
  required: ['uptime_ns'],
  description: 'Metric name with its labels → a count, or percentiles in ns for a timer.',
  properties: { uptime_ns: { type: 'integer' } },
  additionalProperties: {
    oneOf: [
      { type: 'number' },
      {
        type: 'object',
        properties: { p50: { type: 'number' }, p90: { type: 'number' }, p99: { type: 'number' } },
      },
    ],
  },
};

export const STREAM_READINESS: JsonSchema = {
  type: 'object',
  required: ['statuses'],
  properties: {
    error: { type: 'string' },
    statuses: {
      type: 'array',
      items: {
        type: 'object',
        required: ['label', 'path', 'connected'],
        properties: {
          label: { type: 'string' },
          path: { type: 'string' },
          connected: { type: 'boolean' },
          error: { type: 'string' },
        },
      },
    },
  },
};
