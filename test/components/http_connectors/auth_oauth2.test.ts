// OAuth 2 client credentials (`oauth2`) of the HTTP client components against a local token
// endpoint and resource server: one token shared until it expires, a new one after, and a token
// endpoint that refuses the client fails the write without reaching the resource.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { buildComponents, close, recorder, type Seen, tokenEndpoint } from './auth_support.js';
import { buildInput } from './support.js';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('oauth2 (client credentials) on the HTTP client components', () => {
  const servers: { server: import('node:http').Server }[] = [];
  const track = <T extends { server: import('node:http').Server }>(s: T) => {
    servers.push(s);
    return s;
  };
  after(async () => {
    for (const s of servers) await close(s.server);
  });

  it('http_client output: fetches one token with the client credentials and reuses it', async () => {
    const tokens = track(await tokenEndpoint());
    const resource = track(await recorder());
    const { output } = await buildComponents(`
output:
  http_client:
    url: ${resource.base}/ingest
    retries: 0
    oauth2:
      enabled: true
      client_key: my-client
      client_secret: s3cr3t-value
      token_url: ${tokens.url}
      scopes: [ read, write ]
      endpoint_params: { audience: [ 'https://api.example' ] }
`);
    for (const text of ['a', 'b', 'c']) await output.write([new Message(text)]);
    await output.close();
    assert.equal(tokens.requests.length, 1, 'one token for three writes');
    const req = tokens.requests[0];
    assert.equal(req?.authorization, basic('my-client', 's3cr3t-value'));
    assert.equal(req?.form.get('grant_type'), 'client_credentials');
    assert.equal(req?.form.get('scope'), 'read write');
    assert.equal(req?.form.get('audience'), 'https://api.example');
    assert.deepEqual(
      resource.seen.map((s) => [s.body, s.headers.authorization]),
      [
        ['a', 'Bearer t1'],
        ['b', 'Bearer t1'],
        ['c', 'Bearer t1'],
      ],
    );
  });

  it('http_client output: parallel requests of one batch share one token request', async () => {
    const tokens = track(await tokenEndpoint());
    const resource = track(await recorder());
    const { output } = await buildComponents(`
output:
  http_client:
    url: ${resource.base}/ingest
    oauth2: { enabled: true, client_key: k, client_secret: s, token_url: ${tokens.url} }
`);
    await output.write(['a', 'b', 'c', 'd'].map((t) => new Message(t)));
    await output.close();
    assert.equal(resource.seen.length, 4);
    assert.ok(resource.seen.every((s) => s.headers.authorization === 'Bearer t1'));
    assert.equal(tokens.requests.length, 1);
  });

  it('http processor: fetches a new token once the first has expired', async () => {
    // The first token lives 5s: inside the 10s expiry margin, so it is used once, then replaced.
    const tokens = track(await tokenEndpoint((n) => ({ status: 200, expiresIn: n === 0 ? 5 : 3600 })));
    const resource = track(await recorder((s) => ({ status: 200, body: `got ${s.headers.authorization}` })));
    const { processors } = await buildComponents(`
pipeline:
  processors:
    - http:
        url: ${resource.base}/lookup
        oauth2: { enabled: true, client_key: k, client_secret: s, token_url: ${tokens.url} }
output:
  drop: {}
`);
    const proc = processors[0];
    assert.ok(proc);
    const replies: string[] = [];
    for (const text of ['1', '2', '3']) {
      const [out] = await proc.process([new Message(text)]);
      replies.push(out?.[0]?.text() ?? '');
    }
    await proc.close();
    assert.deepEqual(replies, ['got Bearer t1', 'got Bearer t2', 'got Bearer t2']);
    assert.equal(tokens.requests.length, 2);
  });

  it('http_client output: a 401 from the token endpoint fails the write, names the field, hides the secret', async () => {
    const tokens = track(await tokenEndpoint(() => ({ status: 401 })));
    const resource = track(await recorder());
    const { output } = await buildComponents(`
output:
  http_client:
    url: ${resource.base}/ingest
    retries: 1
    retry_period: 1ms
    oauth2: { enabled: true, client_key: my-client, client_secret: s3cr3t-value, token_url: ${tokens.url} }
`);
    const err = await output.write([new Message('never')]).then(
      () => assert.fail('the write should fail (and so be nacked)'),
      (e: Error) => e,
    );
    await output.close();
    assert.match(err.message, /oauth2\.token_url/);
    assert.match(err.message, /HTTP 401 \(invalid_client\)/);
    assert.doesNotMatch(err.message, /s3cr3t-value/);
    assert.equal(resource.seen.length, 0, 'nothing reached the resource server');
    // Credentials in a header first, then in the form (as golang.org/x/oauth2 auto-detects), per attempt.
    assert.equal(tokens.requests.length, 4);
    assert.equal(tokens.requests[1]?.authorization, undefined);
    assert.equal(tokens.requests[1]?.form.get('client_secret'), 's3cr3t-value');
  });

  it('http_client input: polls with the bearer token, and a 401 from the resource gets a new token', async () => {
    const tokens = track(await tokenEndpoint());
    const resource = track(
      await recorder((s: Seen) =>
        s.headers.authorization === 'Bearer t1' ? { status: 401 } : { status: 200, body: 'data' },
      ),
    );
    const { input } = await buildInput(`
input:
  http_client:
    url: ${resource.base}/feed
    retry_period: 1ms
    oauth2: { enabled: true, client_key: k, client_secret: s, token_url: ${tokens.url} }
output:
  drop: {}
`);
    const txn = await input.read();
    assert.equal(txn?.batch[0]?.text(), 'data');
    await txn?.ack(null);
    await input.close();
    assert.deepEqual(
      resource.seen.slice(0, 2).map((s) => s.headers.authorization),
      ['Bearer t1', 'Bearer t2'],
    );
    assert.equal(tokens.requests.length, 2);
  });
});
