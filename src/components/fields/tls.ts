// The `tls` object shared by client connectors (http_client, amqp, redis...), and its
// conversion to node:tls options.
import { readFile } from 'node:fs/promises';
import type { SecureContextOptions } from 'node:tls';
import { type FieldSpec, field, type RawConfigOf } from '../../config/spec.js';

const a = { advanced: true } as const;

/** The fields after `enabled`, the same in both variants. */
function tlsSettingFields() {
  return [
    field.bool('skip_cert_verify', 'Skip verifying the server certificate chain and host name (unsafe).', {
      default: false,
      ...a,
    }),
    field.bool('enable_renegotiation', 'Allow the server to request TLS renegotiation.', {
      default: false,
      ...a,
    }),
    field.string('root_cas', 'PEM certificate authorities to trust instead of the system ones.', {
      default: '',
      secret: true,
      ...a,
      examples: ['-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----'],
    }),
    field.string(
      'root_cas_file',
      'A file of PEM certificate authorities to trust instead of the system ones.',
      {
        default: '',
        ...a,
        examples: ['./root_cas.pem'],
      },
    ),
    field.array(
      field.object(
        'client_certs',
        'Client certificates presented to the server, given inline or as files.',
        [
          field.string('cert', 'A PEM client certificate.', { default: '', ...a }),
          field.string('key', 'The PEM key of `cert`.', { default: '', secret: true, ...a }),
          field.string('cert_file', 'A file holding a PEM client certificate.', { default: '', ...a }),
          field.string('key_file', 'A file holding the PEM key of `cert_file`.', { default: '', ...a }),
          field.string('password', 'The passphrase of an encrypted key.', {
            default: '',
            secret: true,
            ...a,
          }),
        ],
        { default: [], ...a },
      ),
    ),
  ] as const;
}

const enabledField = field.bool('enabled', 'Whether to connect over TLS.', { default: false, ...a });

/**
 * The `tls` object as written. `enabled` is absent in the variant without it (the postgres/mysql
 * CDC inputs): there TLS is on when the object is given.
 */
export type TlsConfig = RawConfigOf<ReturnType<typeof tlsSettingFields>> & { enabled?: boolean };
export type TlsClientCertConfig = TlsConfig['client_certs'][number];

/** The standard `tls` object; `withEnabled: false` drops the `enabled` switch, `optional` marks the object optional. */
export function tlsField(
  options: { withEnabled?: boolean; optional?: boolean } = {},
): FieldSpec<'tls', TlsConfig> {
  const children = [...((options.withEnabled ?? true) ? [enabledField] : []), ...tlsSettingFields()];
  // Declared as the union of both variants: inference cannot see one shape through the condition.
  return field.object('tls', 'Custom TLS settings.', children, {
    ...a,
    ...(options.optional ? { optional: true } : {}),
  }) as unknown as FieldSpec<'tls', TlsConfig>;
}

export interface TlsOptions extends SecureContextOptions {
  rejectUnauthorized: boolean;
}

/** node:tls options from a checked `tls` object, or undefined when TLS is off. Reads the files it names. */
export async function tlsOptions(config: TlsConfig | undefined): Promise<TlsOptions | undefined> {
  if (!config || config.enabled === false) return undefined;
  const options: TlsOptions = { rejectUnauthorized: !config.skip_cert_verify };
  const cas: string[] = [];
  if (config.root_cas) cas.push(config.root_cas);
  if (config.root_cas_file) cas.push(await readFile(config.root_cas_file, 'utf8'));
  if (cas.length > 0) options.ca = cas;
  const certs: string[] = [];
  const keys: { pem: string; passphrase?: string }[] = [];
  for (const c of config.client_certs ?? []) {
    const cert = c.cert || (c.cert_file ? await readFile(c.cert_file, 'utf8') : '');
    const key = c.key || (c.key_file ? await readFile(c.key_file, 'utf8') : '');
    if (!cert || !key)
      throw new Error('tls.client_certs: each entry needs a cert and a key (inline or as files)');
    certs.push(cert);
    keys.push(c.password ? { pem: key, passphrase: c.password } : { pem: key });
  }
  if (certs.length > 0) {
    options.cert = certs;
    options.key = keys;
  }
  return options;
}
