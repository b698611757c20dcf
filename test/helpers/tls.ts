// The `tls` object of a component config with TLS off, every field at its default.
import type { TlsConfig } from '../../src/components/fields/tls.js';

export const TLS_OFF: TlsConfig = {
  enabled: false,
  skip_cert_verify: false,
  enable_renegotiation: false,
  root_cas: '',
  root_cas_file: '',
  client_certs: [],
};
