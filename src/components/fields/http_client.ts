// The fields every HTTP client component shares (http_client input and output, http processor),
// exactly as the reference declares them; the request logic is in ../http/requester.ts.
import { type ConfigOf, field } from '../../config/spec.js';
import { metadataFilterField } from './metadata.js';
import { tlsField } from './tls.js';

const a = { advanced: true };

/** `refused`: the component cannot run oauth, oauth2 and jwt (its lint refuses them); the docs say so. */
export function authFields(refused = false) {
  const no = refused ? ' Not supported by nekton on this component: lint refuses it.' : '';
  return [
    field.object(
      'oauth',
      `OAuth 1.0a request signing (HMAC-SHA1, RFC 5849): each request gets an \`Authorization: OAuth ...\` header.${no}`,
      [
        field.bool('enabled', 'Whether to sign requests with OAuth 1.', { default: false, ...a }),
        field.string('consumer_key', 'The consumer key.', { default: '', ...a }),
        field.string('consumer_secret', 'The consumer secret.', { default: '', secret: true, ...a }),
        field.string('access_token', 'The access token.', { default: '', ...a }),
        field.string('access_token_secret', 'The access token secret.', { default: '', secret: true, ...a }),
      ],
      { optional: true, ...a },
    ),
    field.object(
      'oauth2',
      `OAuth 2 client credentials: a token from \`token_url\`, reused until it expires, sent as a bearer token.${no}`,
      [
        field.bool('enabled', 'Whether to authenticate with OAuth 2 client credentials.', {
          default: false,
          ...a,
        }),
        field.string('client_key', 'The client key.', { default: '', ...a }),
        field.string('client_secret', 'The client secret.', { default: '', secret: true, ...a }),
        field.string('token_url', 'The URL tokens are requested from.', { default: '', ...a }),
        field.array(field.string('scopes', 'Scopes to request.', { default: [], ...a })),
        field.map(
          field.any('endpoint_params', 'Extra parameters of the token request, each a list of strings.', {
            default: {},
            optional: true,
            ...a,
            examples: [{ audience: ['https://example.com'] }],
          }),
        ),
      ],
      { optional: true, ...a },
    ),
    field.object(
      'basic_auth',
      'HTTP basic authentication.',
      [
        field.bool('enabled', 'Whether to send basic authentication.', { default: false, ...a }),
        field.string('username', 'The user name.', { default: '', ...a }),
        field.string('password', 'The password.', { default: '', secret: true, ...a }),
      ],
      { optional: true, ...a },
    ),
    field.object(
      'jwt',
      `JWT bearer authentication: the claims signed with the private key, sent as \`Authorization: Bearer ...\`.${no}`,
      [
        field.bool('enabled', 'Whether to sign a JWT for each request.', { default: false, ...a }),
        field.string('private_key_file', 'The PEM private key the token is signed with.', {
          default: '',
          ...a,
        }),
        field.string('signing_method', 'The signing method: RS256, RS384, RS512 or EdDSA.', {
          default: '',
          ...a,
        }),
        field.map(field.any('claims', 'Claims of the token.', { default: {}, ...a })),
        field.map(field.any('headers', 'Headers of the token.', { default: {}, ...a })),
      ],
      a,
    ),
  ] as const;
}

/** The `basic_auth` object as a factory receives it. */
export type BasicAuthConfig = NonNullable<ConfigOf<ReturnType<typeof authFields>>['basic_auth']>;

/** url … disable_http2 as the reference orders them; `verb` defaults differ per component. */
export function httpClientFields(defaultVerb: 'GET' | 'POST') {
  return [
    field.interpolated('url', 'The URL to request.', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      examples: ['http://localhost:4195/post', 'https://api.example.com/items/${! @id }'],
    }),
    field.string('verb', 'The HTTP method.', { default: defaultVerb, examples: ['POST', 'GET', 'DELETE'] }),
    field.map(
      field.interpolated('headers', 'Request headers; values may be interpolated.', {
        default: {},
        examples: [
          // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
          { 'Content-Type': 'application/octet-stream', traceparent: '${! tracing_span().traceparent }' },
        ],
      }),
    ),
    metadataFilterField('metadata', 'Message metadata to send as request headers.', { optional: true }),
    field.enum(
      'dump_request_log_level',
      'Log each request and response at this level (empty: never).',
      ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL', ''],
      { default: '', ...a },
    ),
    ...authFields(),
    tlsField(),
    metadataFilterField(
      'extract_headers',
      'Response headers to copy into the metadata of resulting messages.',
    ),
    field.string('rate_limit', 'A `rate_limit` resource to respect before each request.', { optional: true }),
    field.duration('timeout', 'How long a request may take before it fails.', { default: '5s' }),
    field.duration('retry_period', 'How long to wait before retrying a failed request.', {
      default: '1s',
      ...a,
    }),
    field.duration('max_retry_backoff', 'The longest wait between retries of `backoff_on` statuses.', {
      default: '300s',
      ...a,
    }),
    field.int('retries', 'How many times a failed request is retried before the write fails.', {
      default: 3,
      ...a,
    }),
    field.bool('follow_redirects', 'Follow 3xx redirects.', { default: true, ...a }),
    field.array(
      field.int('backoff_on', 'Statuses that mean "slow down": retried with an exponential backoff.', {
        default: [429],
        ...a,
      }),
    ),
    field.array(
      field.int('drop_on', 'Statuses after which the message is dropped (acknowledged) without retrying.', {
        default: [],
        ...a,
      }),
    ),
    field.array(
      field.int('successful_on', 'Statuses treated as success in addition to 2xx.', { default: [], ...a }),
    ),
    field.string(
      'proxy_url',
      'An HTTP proxy to send requests through (`http://` or `https://`; CONNECT for https targets).',
      {
        optional: true,
        ...a,
      },
    ),
    field.bool('disable_http2', 'Never negotiate HTTP/2 (nekton speaks HTTP/1.1 only).', {
      default: false,
      ...a,
    }),
  ] as const;
}

/** The HTTP client fields as a factory receives them: url and headers compiled, durations in ms. */
export type HttpClientConfig = ConfigOf<ReturnType<typeof httpClientFields>>;
