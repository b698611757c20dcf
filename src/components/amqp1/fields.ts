// What the amqp_1 input and output declare alike: the broker URLs (the deprecated `url` and the
// `urls` list), TLS and SASL, in the reference's order, and the lint rule that a broker is named.
import { expandUrls, field } from '../../config/spec.js';
import { tlsField } from '../fields/tls.js';

const a = { advanced: true } as const;

export function urlField() {
  return field.string('url', 'Deprecated: use `urls`. A URL to connect to.', {
    deprecated: true,
    optional: true,
    examples: ['amqp://localhost:5672/', 'amqps://guest:guest@localhost:5672/'],
  });
}

/** Declared as a plain list (not `field.urlList`): it is optional, and `url` may stand in for it. */
export function urlsField() {
  return field.array(
    field.string(
      'urls',
      'Brokers to connect to, tried in order until one accepts; an entry may hold several URLs separated by commas. The first that connects is used until the connection closes.',
      {
        optional: true,
        examples: [['amqp://guest:guest@127.0.0.1:5672/'], ['amqp://127.0.0.1:5672/,amqp://127.0.0.2:5672/']],
      },
    ),
  );
}

export function amqp1TlsField() {
  return tlsField();
}

export const SASL_MECHANISMS = ['anonymous', 'none', 'plain'] as const;

export function saslField() {
  return field.object(
    'sasl',
    'SASL authentication. Without it (or with `none`), a user and password in the URL are sent with SASL PLAIN.',
    [
      field.enum(
        'mechanism',
        'The SASL mechanism: `none`, `plain` (user and password) or `anonymous`.',
        SASL_MECHANISMS,
        {
          default: 'none',
          ...a,
        },
      ),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an environment variable reference
      field.string('user', 'The SASL PLAIN user name.', { default: '', ...a, examples: ['${USER}'] }),
      field.string('password', 'The SASL PLAIN password.', {
        default: '',
        secret: true,
        ...a,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an environment variable reference
        examples: ['${PASSWORD}'],
      }),
    ],
    { optional: true, ...a },
  );
}

export interface SaslConfig {
  mechanism: string;
  user: string;
  password: string;
}

interface UrlsConfig {
  url?: string | undefined;
  urls?: readonly (string | undefined)[] | undefined;
}

/** The URLs to try: `urls` with comma-separated entries split out, else the deprecated `url`. */
export function brokerUrls(config: UrlsConfig): string[] {
  const urls = expandUrls((config.urls ?? []).filter((u): u is string => typeof u === 'string'));
  if (urls.length > 0) return urls;
  return config.url ? [config.url] : [];
}

/** A config that names no broker cannot connect anywhere: said at lint (the reference's message). */
export function lintUrls(config: UrlsConfig): string[] {
  return brokerUrls(config).length === 0 ? ["field 'urls' must be set"] : [];
}
