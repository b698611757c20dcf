// Dynamic members take the streams API's id rules and refuse unknown fields (issue 17) instead of
// accepting a NUL byte or 10,000 characters as an id and silently dropping a misspelt field.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { send, startService } from './support.js';

describe('dynamic output members: ids and fields', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
    const stream = { input: { generate: { mapping: 'root = deleted()' } }, output: { dynamic: {} } };
    assert.equal((await send(svc, 'POST', '/streams/dyn', JSON.stringify(stream))).status, 200);
  });
  after(() => svc.stop());

  it('refuses an id with a NUL byte (400) and does not list it', async () => {
    const r = await send(svc, 'POST', '/dyn/outputs/a%00b', 'drop: {}');
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /invalid output id .*control character/);
    assert.equal((await send(svc, 'GET', '/dyn/outputs')).body, '{}');
  });

  it('refuses an id of 10,000 characters (400)', async () => {
    const r = await send(svc, 'POST', `/dyn/outputs/${'x'.repeat(10_000)}`, 'drop: {}');
    assert.equal(r.status, 400, r.body);
    assert.match(r.body, /longer than 256 characters/);
    assert.equal((await send(svc, 'GET', '/dyn/outputs')).body, '{}');
  });

  it('refuses an unknown field with 400 linting_errors naming it, and adds nothing', async () => {
    const r = await send(svc, 'POST', '/dyn/outputs/m1', 'stdout:\n  codec: lines\n  colour: red\n');
    assert.equal(r.status, 400, r.body);
    assert.deepEqual(JSON.parse(r.body), { linting_errors: ['(3,1) field colour not recognised'] });
    assert.equal((await send(svc, 'GET', '/dyn/outputs/m1')).status, 404);
  });

  it('still accepts a valid member', async () => {
    const r = await send(svc, 'POST', '/dyn/outputs/good_one', 'drop: {}');
    assert.equal(r.status, 200, r.body);
    assert.equal((await send(svc, 'GET', '/dyn/outputs/good_one')).body, 'label: ""\ndrop: {}\n');
  });

  it('shows a member with its URL password and Authorization header scrubbed', async () => {
    const body = [
      'http_client:',
      '  url: http://svc:member-pw-7731@127.0.0.1:9/x',
      '  headers:',
      '    Authorization: Bearer member-token-7731',
      '',
    ].join('\n');
    assert.equal((await send(svc, 'POST', '/dyn/outputs/client', body)).status, 200);
    for (const path of ['/dyn/outputs/client', '/dyn/outputs']) {
      const r = await send(svc, 'GET', path);
      assert.equal(r.status, 200);
      assert.ok(!r.body.includes('member-pw-7731') && !r.body.includes('member-token-7731'), r.body);
      assert.ok(r.body.includes('!!!SECRET_SCRUBBED!!!'), r.body);
    }
  });
});
