// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config text with ${ENV} references, not templates
// Secret fields never leave through the API: `GET /streams/{id}`, `GET /resources` and
// `GET /resources/{type}/{id}` show `!!!SECRET_SCRUBBED!!!`, while the running components keep the
// real value (the test server receives the real password) — also after a PATCH built on the
// stored config.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { json, send, startService } from '../streams/support.js';
import { type RecordedRequest, recordingSink } from './support.js';

const PASSWORD = 'hunter2-real-password';
const SCRUBBED = '!!!SECRET_SCRUBBED!!!';

function passwordOf(request: RecordedRequest): string {
  const header = request.headers.authorization ?? '';
  return (
    Buffer.from(header.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')[1] ?? ''
  );
}

describe('secret scrubbing in API reads', () => {
  let service: StreamsService;
  let sink: Awaited<ReturnType<typeof recordingSink>>;

  before(async () => {
    service = await startService();
    sink = await recordingSink();
  });

  after(async () => {
    await service.stop();
    sink.server.closeAllConnections();
    await new Promise((resolve) => sink.server.close(resolve));
  });

  function clientOutput(path: string) {
    return {
      http_client: {
        url: `http://127.0.0.1:${sink.port}${path}`,
        verb: 'POST',
        basic_auth: { enabled: true, username: 'svc', password: PASSWORD },
      },
    };
  }

  it('GET /streams/{id} scrubs the password; the stream still sends the real one', async () => {
    const config = {
      input: { generate: { interval: '50ms', mapping: 'root = "tick"' } },
      output: clientOutput('/stream'),
    };
    const created = await send(service, 'POST', '/streams/secretive', JSON.stringify(config));
    assert.equal(created.status, 200, created.body);
    const got = await send(service, 'GET', '/streams/secretive');
    assert.ok(!got.body.includes(PASSWORD), 'the password leaked through GET /streams/{id}');
    const shown = json(got) as {
      config: { output: { http_client: { basic_auth: { password: string; username: string } } } };
    };
    assert.equal(shown.config.output.http_client.basic_auth.password, SCRUBBED);
    assert.equal(shown.config.output.http_client.basic_auth.username, 'svc');
    const hit = await waitFor(() => sink.requests.find((r) => r.path === '/stream'), {
      message: 'a request at the sink',
    });
    assert.equal(passwordOf(hit), PASSWORD, 'the running stream did not keep the real password');
  });

  it('a PATCH merges into the stored config, not the scrubbed view: the real password survives', async () => {
    const patch = JSON.stringify({
      output: { http_client: { url: `http://127.0.0.1:${sink.port}/patched` } },
    });
    const patched = await send(service, 'PATCH', '/streams/secretive', patch);
    assert.equal(patched.status, 200, patched.body);
    const hit = await waitFor(() => sink.requests.find((r) => r.path === '/patched'), {
      message: 'a request after PATCH',
    });
    assert.equal(passwordOf(hit), PASSWORD);
    const got = await send(service, 'GET', '/streams/secretive');
    assert.ok(!got.body.includes(PASSWORD));
    assert.equal((await send(service, 'DELETE', '/streams/secretive?timeout=0s')).status, 200);
  });

  it('resource reads scrub too, while streams using the resource send the real password', async () => {
    const created = await send(
      service,
      'POST',
      '/resources/output/secret_out',
      JSON.stringify(clientOutput('/resource')),
    );
    assert.equal(created.status, 200, created.body);
    for (const path of ['/resources/output/secret_out', '/resources']) {
      const got = await send(service, 'GET', path);
      assert.equal(got.status, 200, path);
      assert.ok(!got.body.includes(PASSWORD), `the password leaked through GET ${path}`);
      assert.ok(got.body.includes(SCRUBBED), `GET ${path} does not show the scrubbed marker: ${got.body}`);
    }
    const stream = {
      input: { generate: { interval: '50ms', mapping: 'root = "tick"' } },
      output: { resource: 'secret_out' },
    };
    const user = await send(service, 'POST', '/streams/uses_resource', JSON.stringify(stream));
    assert.equal(user.status, 200, user.body);
    const hit = await waitFor(() => sink.requests.find((r) => r.path === '/resource'), {
      message: 'a request via the resource',
    });
    assert.equal(passwordOf(hit), PASSWORD);
    assert.equal((await send(service, 'DELETE', '/streams/uses_resource?timeout=0s')).status, 200);
  });

  it('scrubs a secret that came from an ${ENV:default} in the body', async () => {
    const config = {
      input: { generate: { interval: '1s', mapping: 'root = deleted()' } },
      output: {
        http_client: {
          url: `http://127.0.0.1:${sink.port}/env`,
          basic_auth: { enabled: true, username: 'svc', password: '${NEKTON_SCRUB_TEST_PW:fallback}' },
        },
      },
    };
    // Chilled: the variable is not set; the body is interpolated, so the stored value is the default.
    const created = await send(service, 'POST', '/streams/envref?chilled=true', JSON.stringify(config));
    assert.equal(created.status, 200, created.body);
    const got = await send(service, 'GET', '/streams/envref');
    assert.ok(!got.body.includes('fallback'), 'an interpolated secret leaked');
    assert.equal((await send(service, 'DELETE', '/streams/envref?timeout=0s')).status, 200);
  });
});
