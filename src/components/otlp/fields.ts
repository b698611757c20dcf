// The fields of the otlp_http / otlp_grpc inputs and outputs, exactly as the reference declares them.
import { field } from '../../config/spec.js';
import { authFields } from '../fields/http_client.js';
import { tlsField } from '../fields/tls.js';

const a = { advanced: true };

function serverTlsField() {
  return field.object(
    'tls',
    'TLS for the listener.',
    [
      field.bool('enabled', 'Serve TLS.', { default: false, ...a }),
      field.string('cert_file', 'The PEM certificate file.', { default: '', ...a }),
      field.string('key_file', 'The PEM key file.', { default: '', ...a }),
    ],
    a,
  );
}

function schemaRegistryField() {
  const [oauth, oauth2, basicAuth, jwt] = authFields(true);
  return field.object(
    'schema_registry',
    "Schema registry of the reference's `redpanda.otel.v1` protobuf messages (not supported by nekton: lint refuses it).",
    [
      field.string('url', 'The schema registry URL.', a),
      field.duration('timeout', 'Request timeout.', { default: '5s', ...a }),
      tlsField(),
      oauth2,
      oauth,
      basicAuth,
      jwt,
      field.string('common_subject', 'Subject of the common schema.', { default: '', ...a }),
      field.string('trace_subject', 'Subject of the trace schema.', { default: '', ...a }),
      field.string('log_subject', 'Subject of the log schema.', { default: '', ...a }),
      field.string('metric_subject', 'Subject of the metric schema.', { default: '', ...a }),
    ],
    { optional: true, ...a },
  );
}

function listenerTcpField() {
  return field.object(
    'tcp',
    'Socket options of the listener.',
    [
      field.bool('reuse_addr', 'Allow binding an address in TIME_WAIT.', { default: false, ...a }),
      field.bool('reuse_port', 'Let several processes bind the same port.', { default: false, ...a }),
    ],
    { optional: true, ...a },
  );
}

const encodingField = () =>
  field.enum('encoding', 'How each message is encoded: OTLP JSON, or OTLP protobuf.', ['protobuf', 'json'], {
    default: 'json',
  });

export const otlpHttpInputFields = [
  encodingField(),
  field.string('address', 'The address to listen on.', { default: '0.0.0.0:4318' }),
  serverTlsField(),
  field.string('auth_token', 'When set, requests must carry `Authorization: Bearer <token>`.', {
    default: '',
    secret: true,
    ...a,
  }),
  field.duration('read_timeout', 'How long a request may take to arrive.', { default: '10s', ...a }),
  field.duration('write_timeout', 'How long a request may wait for its messages to be delivered.', {
    default: '10s',
    ...a,
  }),
  field.int('max_body_size', 'The largest request body accepted, in bytes (413 past it).', {
    default: 4194304,
    ...a,
  }),
  field.string('rate_limit', 'A `rate_limit` resource each request must pass (429 when it refuses).', {
    default: '',
  }),
  listenerTcpField(),
  schemaRegistryField(),
] as const;

export const otlpGrpcInputFields = [
  encodingField(),
  field.string('address', 'The address to listen on.', { default: '0.0.0.0:4317' }),
  serverTlsField(),
  field.string('auth_token', 'When set, calls must carry `authorization: Bearer <token>` metadata.', {
    default: '',
    secret: true,
    ...a,
  }),
  field.int('max_recv_msg_size', 'The largest request accepted, in bytes (RESOURCE_EXHAUSTED past it).', {
    default: 4194304,
    ...a,
  }),
  field.string(
    'rate_limit',
    'A `rate_limit` resource each call must pass (RESOURCE_EXHAUSTED when it refuses).',
    {
      default: '',
    },
  ),
  listenerTcpField(),
  schemaRegistryField(),
] as const;

function clientTlsField() {
  return field.object(
    'tls',
    'TLS to the endpoint.',
    [
      field.bool('enabled', 'Use TLS.', { default: false, ...a }),
      field.bool('skip_cert_verify', 'Do not verify the server certificate.', { default: false, ...a }),
      field.string('cert_file', 'A PEM client certificate file.', { default: '', ...a }),
      field.string('key_file', 'A PEM client key file.', { default: '', ...a }),
    ],
    { optional: true, ...a },
  );
}

function clientTcpField() {
  return field.object(
    'tcp',
    'TCP socket options (accepted; nekton uses the client defaults).',
    [
      field.duration('connect_timeout', 'How long a connection attempt may take (0s: the client default).', {
        default: '0s',
        ...a,
      }),
      field.object(
        'keep_alive',
        'TCP keep-alive probes.',
        [
          field.duration('idle', 'Idle time before the first probe.', { default: '15s', ...a }),
          field.duration('interval', 'Time between probes.', { default: '15s', ...a }),
          field.int('count', 'Unanswered probes before the connection is dropped.', { default: 9, ...a }),
        ],
        { optional: true, ...a },
      ),
      field.duration('tcp_user_timeout', 'How long sent data may stay unacknowledged (Linux; 0s: off).', {
        default: '0s',
        ...a,
      }),
    ],
    { optional: true, ...a },
  );
}

const headersField = () =>
  field.map(
    field.interpolated('headers', 'Headers (gRPC metadata) of each request; values may be interpolated.', {
      default: {},
      ...a,
    }),
  );

const maxInFlightField = () =>
  field.int('max_in_flight', 'How many requests may be in flight at once.', { default: 64 });

export function otlpHttpOutputFields() {
  const [oauth, oauth2, basicAuth, jwt] = authFields(true);
  return [
    field.string(
      'endpoint',
      'The OTLP/HTTP base URL: `/v1/traces`, `/v1/logs` or `/v1/metrics` is appended.',
      {
        examples: ['http://localhost:4318'],
      },
    ),
    field.enum('content_type', 'The request encoding.', ['protobuf', 'json'], { default: 'protobuf', ...a }),
    headersField(),
    field.duration('timeout', 'How long a request may take.', { default: '30s', ...a }),
    field.string('proxy_url', 'An HTTP proxy (not supported by nekton: lint refuses it).', {
      default: '',
      ...a,
    }),
    field.bool('follow_redirects', 'Follow redirects.', { default: false, ...a }),
    field.bool('disable_http2', 'Accepted; nekton speaks HTTP/1.1.', { default: false, ...a }),
    clientTlsField(),
    clientTcpField(),
    oauth,
    basicAuth,
    jwt,
    oauth2,
    maxInFlightField(),
  ] as const;
}

export function otlpGrpcOutputFields() {
  const [, oauth2] = authFields(true);
  return [
    field.string(
      'endpoint',
      'The OTLP/gRPC endpoint, `host:port` (an `http://` or `https://` prefix is allowed).',
      {
        examples: ['localhost:4317'],
      },
    ),
    headersField(),
    field.duration('timeout', 'How long a call may take.', { default: '30s', ...a }),
    field.enum('compression', 'Request compression.', ['gzip', 'none'], { default: 'gzip', ...a }),
    clientTlsField(),
    clientTcpField(),
    oauth2,
    maxInFlightField(),
  ] as const;
}
