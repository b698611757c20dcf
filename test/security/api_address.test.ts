// The management API and component endpoints on different addresses: `http.address` binds the API
// (here 127.0.0.1 only), an `http_server` input with its own `address` serves data elsewhere. Each
// listener serves only its own paths.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { freePort, waitFor } from '../helpers/kit.js';
import { send, startService } from '../streams/support.js';

function call(port: number, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

describe('management API on its own address', () => {
  let service: StreamsService;
  let dataPort: number;

  before(async () => {
    service = await startService(); // http.address: 127.0.0.1:0
    dataPort = await freePort();
    const config = {
      input: { http_server: { address: `127.0.0.1:${dataPort}`, path: '/ingest' } },
      output: { drop: {} },
    };
    const created = await send(service, 'POST', '/streams/public', JSON.stringify(config));
    assert.equal(created.status, 200, created.body);
  });

  after(async () => {
    await service.stop();
  });

  it('serves data on the component address and the API only on the API address', async () => {
    const apiPort = service.http.port as number;
    assert.notEqual(apiPort, dataPort);
    assert.equal(service.http.address()?.address, '127.0.0.1');
    await waitFor(async () => (await call(dataPort, 'POST', '/ingest', 'hi')) === 200, {
      message: 'the data endpoint',
    });
    // The component's listener knows nothing of the API...
    for (const path of ['/streams', '/streams/public', '/resources', '/ready', '/ping', '/nekton/streams'])
      assert.equal(await call(dataPort, 'GET', path), 404, `${path} answered on the data address`);
    assert.equal(await call(dataPort, 'DELETE', '/streams/public'), 404);
    // ...and the API's listener does not expose the component's endpoint.
    assert.equal(await call(apiPort, 'POST', '/ingest', 'hi'), 404);
    assert.equal(await call(apiPort, 'POST', '/public/ingest', 'hi'), 404);
    assert.equal(await call(apiPort, 'GET', '/streams'), 200);
  });
});
