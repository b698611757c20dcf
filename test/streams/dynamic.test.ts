// Spec §9 scenarios 53–58, 66 and the dynamic output's HTTP behaviour, against a real server.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseDurationNs } from '../../src/config/duration.js';
import type { StreamsService } from '../../src/streams/service.js';
import { waitFor } from '../helpers/kit.js';
import { send, startService, tempDir } from './support.js';

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];

const fileOutput = (path: string) => `file:\n  path: ${path}\n  codec: lines\n`;

describe('dynamic output and input over HTTP (prefixing off)', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService({ prefixStreamEndpoints: false });
    const stream = { input: { http_server: { path: '/post' } }, output: { dynamic: {} } };
    assert.equal((await send(svc, 'POST', '/streams/d1', JSON.stringify(stream))).status, 200);
  });
  after(() => svc.stop());

  it('53: a fresh dynamic output lists nothing', async () => {
    const r = await send(svc, 'GET', '/outputs');
    assert.equal(r.status, 200);
    assert.equal(r.body, '{}');
  });

  it('54/65: a message sent with no outputs waits; POSTing `drop: {}` delivers and acknowledges it', async () => {
    let answered = false;
    const posted = send(svc, 'POST', '/post', 'hello').then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(answered, false, 'the message was acknowledged with no output present');
    const add = await send(svc, 'POST', '/outputs/foo', 'drop: {}');
    assert.equal(add.status, 200);
    assert.equal(add.body, '');
    assert.equal((await posted).status, 200);
  });

  it('55: GET shows the stored config exactly', async () => {
    const r = await send(svc, 'GET', '/outputs/foo');
    assert.equal(r.status, 200);
    assert.equal(r.body, 'label: ""\ndrop: {}\n');
  });

  it('lists members with uptime, parsed config and config text', async () => {
    const r = await send(svc, 'GET', '/outputs');
    const body = JSON.parse(r.body) as Record<
      string,
      { uptime: string; config: unknown; config_raw: string }
    >;
    assert.deepEqual(Object.keys(body), ['foo']);
    assert.deepEqual(Object.keys(body.foo!), ['uptime', 'config', 'config_raw']);
    assert.ok(parseDurationNs(body.foo!.uptime) > 0);
    assert.deepEqual(body.foo!.config, { label: '', drop: {} });
    assert.equal(body.foo!.config_raw, 'label: ""\ndrop: {}\n');
  });

  it('a byte-identical re-POST changes nothing (the uptime keeps growing)', async () => {
    const before = parseDurationNs((await send(svc, 'GET', '/outputs/foo/uptime')).body);
    assert.equal((await send(svc, 'POST', '/outputs/foo', 'drop: {}')).status, 200);
    const afterwards = parseDurationNs((await send(svc, 'GET', '/outputs/foo/uptime')).body);
    assert.ok(afterwards >= before, `${afterwards} < ${before}`);
  });

  it('a body that does not parse or build is 502 with the error; the previous member keeps running', async () => {
    for (const bad of ['nope: {}', 'drop: [', 'file: {path: 5, codec: 7}', 'hello world']) {
      const r = await send(svc, 'POST', '/outputs/foo', bad);
      assert.equal(r.status, 502, bad);
      assert.match(r.body, /^Error: .+\n$/, bad);
    }
    assert.equal((await send(svc, 'GET', '/outputs/foo')).body, 'label: ""\ndrop: {}\n');
    assert.equal((await send(svc, 'POST', '/post', 'still flowing')).status, 200);
  });

  it('a body with a YAML syntax error names its line', async () => {
    const r = await send(svc, 'POST', '/outputs/foo', 'label: x\ndrop: {}\n\tfile: {}\n');
    assert.equal(r.status, 502);
    assert.equal(r.body, 'Error: line 3: Tabs are not allowed as indentation\n');
  });

  it('POST replaces a member: messages before go to the old output, after to the new one', async () => {
    const dir = tempDir();
    const [a, b] = [join(dir, 'a.txt'), join(dir, 'b.txt')];
    assert.equal((await send(svc, 'POST', '/outputs/foo', fileOutput(a))).status, 200);
    assert.equal((await send(svc, 'POST', '/post', 'one')).status, 200);
    assert.equal((await send(svc, 'POST', '/outputs/foo', fileOutput(b))).status, 200);
    assert.equal((await send(svc, 'POST', '/post', 'two')).status, 200);
    assert.deepEqual(lines(a), ['one']);
    assert.deepEqual(lines(b), ['two']);
    const stored = await send(svc, 'GET', '/outputs/foo');
    assert.equal(stored.body, `label: ""\nfile:\n    path: ${b}\n    codec: lines\n`);
  });

  it('a member added later sees only later messages; every member gets each message once', async () => {
    const dir = tempDir();
    const [x, y] = [join(dir, 'x.txt'), join(dir, 'y.txt')];
    await send(svc, 'POST', '/outputs/foo', fileOutput(x));
    assert.equal((await send(svc, 'POST', '/post', 'early')).status, 200);
    await send(svc, 'POST', '/outputs/bar', fileOutput(y));
    assert.equal((await send(svc, 'POST', '/post', 'late')).status, 200);
    assert.deepEqual(lines(x), ['early', 'late']);
    assert.deepEqual(lines(y), ['late']);
  });

  it('DELETE removes a member (200, also for unknown ids); GET is then 404', async () => {
    assert.equal((await send(svc, 'DELETE', '/outputs/bar')).status, 200);
    assert.equal((await send(svc, 'DELETE', '/outputs/never')).status, 200);
    const r = await send(svc, 'GET', '/outputs/bar');
    assert.equal(r.status, 404);
    assert.equal(r.body, "Dynamic component 'bar' is not active\n");
    assert.equal((await send(svc, 'GET', '/outputs/bar/uptime')).status, 404);
    assert.deepEqual(Object.keys(JSON.parse((await send(svc, 'GET', '/outputs')).body)), ['foo']);
  });

  it('58: unsupported verbs are 502', async () => {
    const r = await send(svc, 'PUT', '/outputs/foo', 'drop: {}');
    assert.equal(r.status, 502);
    assert.equal(r.body, 'Error: verb not supported: PUT\n');
  });
});

describe('dynamic brokers inside prefixed streams', () => {
  let svc: StreamsService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  it('56/57/58: dynamic input members add messages, show their config and uptime, and stop', async () => {
    const out = join(tempDir(), 'out.txt');
    const stream = `input:\n  dynamic: {}\noutput:\n  ${fileOutput(out).replace(/\n {2}/g, '\n    ')}`;
    assert.equal((await send(svc, 'POST', '/streams/s2?chilled=true', stream)).status, 200);
    assert.equal((await send(svc, 'GET', '/s2/inputs')).body, '{}');
    const body = 'generate:\n  interval: 100ms\n  mapping: \'root.source = "foo"\'';
    assert.equal((await send(svc, 'POST', '/s2/inputs/foo', body)).status, 200);
    await waitFor(() => lines(out).includes('{"source":"foo"}'), { message: 'a generated message' });
    const stored = await send(svc, 'GET', '/s2/inputs/foo');
    assert.equal(stored.status, 200);
    assert.equal(
      stored.body,
      'label: ""\ngenerate:\n    mapping: \'root.source = "foo"\'\n    interval: 100ms\n',
    );
    const uptime = await send(svc, 'GET', '/s2/inputs/foo/uptime');
    assert.equal(uptime.status, 200);
    assert.ok(parseDurationNs(uptime.body) > 1, uptime.body);

    const once = 'generate:\n  count: 1\n  interval: 1ns\n  mapping: \'root.source = "once"\'';
    assert.equal((await send(svc, 'POST', '/s2/inputs/once', once)).status, 200);
    await waitFor(async () => (await send(svc, 'GET', '/s2/inputs/once/uptime')).body === 'stopped', {
      message: 'the finished input to show stopped',
    });
    assert.ok(lines(out).includes('{"source":"once"}'));
    const listed = JSON.parse((await send(svc, 'GET', '/s2/inputs')).body) as Record<
      string,
      { uptime: string }
    >;
    assert.equal(listed.once?.uptime, 'stopped');

    const verb = await send(svc, 'PUT', '/s2/inputs/foo');
    assert.equal(verb.status, 502);
    assert.equal(verb.body, 'Error: verb not supported: PUT\n');
    assert.equal((await send(svc, 'DELETE', '/s2/inputs/foo')).status, 200);
    assert.equal((await send(svc, 'GET', '/s2/inputs/foo')).status, 404);
    assert.equal((await send(svc, 'DELETE', '/streams/s2')).status, 200);
  });

  it('66: a static input runs its own processors before the stream pipeline', async () => {
    const out = join(tempDir(), 'out.txt');
    const stream = `input:
  dynamic:
    inputs:
      first:
        generate:
          count: 1
          interval: ''
          mapping: 'root = "hello world 1"'
        processors:
          - mapping: 'root = content().uppercase()'
pipeline:
  processors:
    - mapping: 'root = "meow " + content()'
output:
  file:
    path: ${out}
    codec: lines
`;
    assert.equal((await send(svc, 'POST', '/streams/s66?chilled=true', stream)).status, 200);
    await waitFor(() => lines(out).length > 0, { message: 'the processed message' });
    assert.deepEqual(lines(out), ['meow HELLO WORLD 1']);
    const stored = await send(svc, 'GET', '/s66/inputs/first');
    assert.match(stored.body, /^label: ""\ngenerate:\n/);
    assert.match(stored.body, /processors:\n/);
    assert.equal((await send(svc, 'DELETE', '/streams/s66')).status, 200);
  });

  it("a member that cannot connect shows in the stream's /ready; removing it makes the stream ready", async () => {
    const stream = { input: { generate: { mapping: 'root = deleted()' } }, output: { dynamic: {} } };
    assert.equal((await send(svc, 'POST', '/streams/s3', JSON.stringify(stream))).status, 200);
    assert.equal((await send(svc, 'POST', '/s3/outputs/ok', 'drop: {}')).status, 200);
    await waitFor(async () => (await send(svc, 'GET', '/s3/ready')).status === 200, { message: 'ready' });
    assert.equal((await send(svc, 'POST', '/s3/outputs/bad', 'test_unconnectable: {}')).status, 200);
    const notReady = await waitFor(
      async () => {
        const r = await send(svc, 'GET', '/s3/ready');
        return r.status === 503 && r;
      },
      { message: 'not ready' },
    );
    assert.match(notReady.body, /this output can never connect/);
    assert.equal((await send(svc, 'DELETE', '/s3/outputs/bad')).status, 200);
    await waitFor(async () => (await send(svc, 'GET', '/s3/ready')).status === 200, {
      message: 'ready again',
    });
    assert.equal((await send(svc, 'DELETE', '/streams/s3')).status, 200);
  });
});
