// The `http_server` input's fields, apart from its factory so the reader can take their type.
import { type ConfigOf, field } from '../../config/spec.js';
import { listenerTlsCorsFields } from '../fields/http_listener.js';
import { metadataFilterField } from '../fields/metadata.js';

const a = { advanced: true };

export const httpServerInputFields = [
  field.string('address', 'Listen on this address with an own server instead of the shared one.', {
    default: '',
    examples: ['0.0.0.0:8080'],
  }),
  field.string('path', 'The endpoint path for requests.', { default: '/post' }),
  field.string('ws_path', 'The endpoint path for websocket connections.', { default: '/post/ws' }),
  field.string('ws_welcome_message', 'Sent to each websocket client when it connects.', {
    default: '',
    ...a,
  }),
  field.string('ws_rate_limit_message', 'Sent to a websocket client that hits the rate limit.', {
    default: '',
    ...a,
  }),
  field.array(
    field.string('allowed_verbs', 'HTTP methods accepted on `path`.', {
      default: ['POST'],
      examples: [['POST', 'PUT']],
    }),
  ),
  field.duration('timeout', 'How long a request waits for its message to be delivered before a 408.', {
    default: '5s',
  }),
  field.string('rate_limit', 'A `rate_limit` resource; requests over the limit get a 429.', {
    default: '',
  }),
  ...listenerTlsCorsFields(),
  field.object(
    'sync_response',
    'How the response is built when the pipeline returns a sync response.',
    [
      field.interpolated('status', 'The response status code.', {
        default: '200',
        ...a,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
        examples: ['${! meta("status").or("200") }'],
      }),
      field.map(
        field.interpolated('headers', 'Response headers.', {
          default: { 'Content-Type': 'application/octet-stream' },
          ...a,
        }),
      ),
      metadataFilterField('metadata_headers', 'Metadata of the response message to send as headers.'),
    ],
    a,
  ),
  field.object(
    'tcp',
    'Socket options of an own server.',
    [
      field.bool('reuse_addr', 'Allow binding an address in TIME_WAIT.', { default: false, ...a }),
      field.bool('reuse_port', 'Let several processes bind the same port.', { default: false, ...a }),
    ],
    { optional: true, ...a },
  ),
] as const;

/** What the input's factory receives: `timeout` in ms, the sync response's interpolations compiled. */
export type HttpServerInputConfig = ConfigOf<typeof httpServerInputFields>;
