// Lint of the auth and proxy fields of the HTTP client components and websockets: what can be
// checked without a network or the key file is, at the component's line; a config that lints runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';

const provider = schemaProvider(registry);
const lint = (yaml: string) =>
  lintStreamConfig(parseYaml(yaml), { provider, bloblang: bloblangChecker }).map(formatApiLint);

describe('auth and proxy lint', () => {
  it('accepts every auth and an http proxy once they are complete', () => {
    assert.deepEqual(
      lint(`input:
  http_client:
    url: http://localhost:1/feed
    oauth: { enabled: true, consumer_key: a, consumer_secret: b, access_token: c, access_token_secret: d }
    proxy_url: http://user:pw@proxy:3128
pipeline:
  processors:
    - http:
        url: http://localhost:1/lookup
        jwt: { enabled: true, private_key_file: ./key.pem, signing_method: EdDSA, claims: { sub: x } }
output:
  http_client:
    url: http://localhost:1/out
    oauth2:
      enabled: true
      token_url: https://auth.example/token
      endpoint_params: { audience: [ a, b ] }
`),
      [],
    );
  });

  it('refuses an oauth2 without a token URL, bad endpoint_params, a jwt it cannot sign and a socks proxy', () => {
    assert.deepEqual(
      lint(`input:
  generate: { mapping: 'root = 1' }
output:
  http_client:
    url: http://localhost:1/out
    oauth2:
      enabled: true
      endpoint_params: { audience: 'not a list' }
    jwt: { enabled: true, signing_method: ES256 }
    proxy_url: socks5://proxy:1080
`),
      [
        '(5,1) oauth2.token_url: an empty value is not an http(s) URL',
        '(5,1) oauth2.endpoint_params.audience: must be a list of strings',
        '(5,1) jwt.signing_method: "ES256" is not one of RS256, RS384, RS512, EdDSA',
        '(5,1) jwt.private_key_file: a key file is required',
        '(5,1) proxy_url: only http:// and https:// proxies are supported, not socks5://',
      ],
    );
  });

  it('checks the websocket output and the http processor the same way, keeping a token URL password out', () => {
    assert.deepEqual(
      lint(`input:
  generate: { mapping: 'root = 1' }
pipeline:
  processors:
    - http:
        url: http://localhost:1/x
        oauth2: { enabled: true, token_url: 'ftp://u:hunter2@host/token' }
output:
  websocket:
    url: ws://localhost:1
    proxy_url: 'not a url'
`),
      [
        '(6,1) oauth2.token_url: "ftp://u:!!!SECRET_SCRUBBED!!!@host/token" is not an http(s) URL',
        '(10,1) proxy_url: "not a url" is not a URL',
      ],
    );
  });
});
