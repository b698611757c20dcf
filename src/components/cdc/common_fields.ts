// Fields both CDC inputs declare as the reference does: the `aws` IAM object (accepted by lint only
// when disabled: nekton has no AWS signer) and the lint rule that goes with it.
import { field } from '../../config/spec.js';

const a = { advanced: true } as const;

export function awsIamField() {
  return field.object(
    'aws',
    'AWS IAM authentication (RDS). Not supported by nekton: lint refuses `enabled: true`.',
    [
      field.bool('enabled', 'Use an IAM token as the password.', { default: false, ...a }),
      field.string('region', 'The AWS region.', { optional: true, ...a }),
      field.string('endpoint', 'The database endpoint host name.', a),
      field.string('id', 'The access key id.', { optional: true, ...a }),
      field.string('secret', 'The secret access key.', { optional: true, secret: true, ...a }),
      field.string('token', 'A session token.', { optional: true, ...a }),
      field.string('role', 'A role to assume.', { optional: true, ...a }),
      field.string('role_external_id', 'The external id of `role`.', { optional: true, ...a }),
      field.array(
        field.object(
          'roles',
          'Roles assumed in sequence.',
          [
            field.string('role', 'A role to assume.', { default: '', ...a }),
            field.string('role_external_id', 'Its external id.', { default: '', optional: true, ...a }),
          ],
          { optional: true, ...a },
        ),
      ),
    ],
    { optional: true, ...a },
  );
}

export function awsLint(aws: { enabled?: boolean } | undefined): string[] {
  return aws?.enabled ? ['aws.enabled: AWS IAM authentication is not supported by nekton'] : [];
}

/** Whether a `tls` object (always built from its defaults) asks for anything. */
export function tlsIsSet(
  tls:
    | {
        skip_cert_verify?: boolean;
        root_cas?: string;
        root_cas_file?: string;
        client_certs?: unknown[];
      }
    | undefined,
): boolean {
  if (!tls) return false;
  return Boolean(
    tls.skip_cert_verify || tls.root_cas || tls.root_cas_file || (tls.client_certs?.length ?? 0) > 0,
  );
}
