// The fields the `http_server` input and output share for an own listener: TLS files and CORS,
// declared as the reference declares them for both.
import { field } from '../../config/spec.js';

const a = { advanced: true };

/** `cert_file`, `key_file`, `cors`: in the reference's order, after each component's own fields. */
export function listenerTlsCorsFields() {
  return [
    field.string('cert_file', 'A TLS certificate file (own server only).', { default: '', ...a }),
    field.string('key_file', 'The TLS key file of `cert_file`.', { default: '', ...a }),
    field.object(
      'cors',
      'Cross-origin resource sharing headers.',
      [
        field.bool('enabled', 'Whether to answer CORS requests.', { default: false, ...a }),
        field.array(
          field.string('allowed_origins', 'Origins allowed to send requests; `*` allows any.', {
            default: [],
            ...a,
          }),
        ),
      ],
      a,
    ),
  ] as const;
}
