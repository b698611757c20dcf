// Spec §4.6: input, output and processor resources replaced over the streams API take effect in
// running streams (through the `resource` components) without restarting them.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { json, send, startService, tempDir } from './support.js';

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];

const uptimeOf = async (svc: StreamsService, id: string) =>
  (json(await send(svc, 'GET', `/streams/${id}`)) as { uptime: number }).uptime;

describe('resource components follow replaced resources', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('a replaced processor resource applies to the next message', async () => {
    const out = join(tempDir(), 'out.txt');
    const tag = (v: string) => `mapping: 'root = content() + " ${v}"'`;
    assert.equal((await send(svc, 'POST', '/resources/processor/tag', tag('v1'))).status, 200);
    const stream = `input:\n  http_server:\n    path: /post\npipeline:\n  processors:\n    - resource: tag\noutput:\n  file:\n    path: ${out}\n    codec: lines\n`;
    assert.equal((await send(svc, 'POST', '/streams/rp', stream)).status, 200);
    assert.equal((await send(svc, 'POST', '/rp/post', 'a')).status, 200);
    const uptime = await uptimeOf(svc, 'rp');
    assert.equal((await send(svc, 'POST', '/resources/processor/tag', tag('v2'))).status, 200);
    assert.equal((await send(svc, 'POST', '/rp/post', 'b')).status, 200);
    assert.deepEqual(lines(out), ['a v1', 'b v2']);
    assert.ok((await uptimeOf(svc, 'rp')) > uptime, 'the stream was restarted');
    assert.equal((await send(svc, 'DELETE', '/streams/rp')).status, 200);
  });

  it('a replaced output resource receives the next message', async () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a.txt'), join(dir, 'b.txt')];
    const sink = (path: string) => `file:\n  path: ${path}\n  codec: lines\n`;
    assert.equal((await send(svc, 'POST', '/resources/output/sink', sink(a))).status, 200);
    const stream = 'input:\n  http_server:\n    path: /post\noutput:\n  resource: sink\n';
    assert.equal((await send(svc, 'POST', '/streams/ro', stream)).status, 200);
    assert.equal((await send(svc, 'POST', '/ro/post', 'first')).status, 200);
    const uptime = await uptimeOf(svc, 'ro');
    assert.equal((await send(svc, 'POST', '/resources/output/sink', sink(b))).status, 200);
    assert.equal((await send(svc, 'POST', '/ro/post', 'second')).status, 200);
    assert.deepEqual(lines(a), ['first']);
    assert.deepEqual(lines(b), ['second']);
    assert.ok((await uptimeOf(svc, 'ro')) > uptime, 'the stream was restarted');
    assert.equal((await send(svc, 'DELETE', '/streams/ro')).status, 200);
  });

  it('a replaced input resource feeds the running stream', async () => {
    const out = join(tempDir(), 'out.txt');
    const source = (v: string) => `generate:\n  interval: 20ms\n  mapping: 'root = "${v}"'\n`;
    assert.equal((await send(svc, 'POST', '/resources/input/src', source('old'))).status, 200);
    const stream = `input:\n  resource: src\noutput:\n  file:\n    path: ${out}\n    codec: lines\n`;
    assert.equal((await send(svc, 'POST', '/streams/ri', stream)).status, 200);
    await waitFor(() => lines(out).includes('old'), { message: 'messages of the first input' });
    const uptime = await uptimeOf(svc, 'ri');
    assert.equal((await send(svc, 'POST', '/resources/input/src', source('new'))).status, 200);
    await waitFor(() => lines(out).includes('new'), { message: 'messages of the replacement' });
    const seen = lines(out);
    assert.ok(seen.lastIndexOf('old') < seen.indexOf('new'), 'old messages after the swap');
    assert.ok((await uptimeOf(svc, 'ri')) > uptime, 'the stream was restarted');
    assert.equal((await send(svc, 'DELETE', '/streams/ri')).status, 200);
  });

  it('a stream naming a missing resource fails to build (502) and is not created', async () => {
    for (const [section, body] of [
      ['input', 'input:\n  resource: nope\noutput:\n  drop: {}\n'],
      ['output', 'input:\n  generate:\n    mapping: root = deleted()\noutput:\n  resource: nope\n'],
      [
        'processor',
        'input:\n  generate:\n    mapping: root = deleted()\npipeline:\n  processors:\n    - resource: nope\noutput:\n  drop: {}\n',
      ],
    ] as const) {
      const r = await send(svc, 'POST', '/streams/missing', body);
      assert.equal(r.status, 502, section);
      assert.match(r.body, new RegExp(`^Error: .*${section} resource 'nope' was not found`), section);
      assert.equal((await send(svc, 'GET', '/streams/missing')).status, 404);
    }
  });
});
