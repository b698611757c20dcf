// Spec §9 scenarios 14–28: env interpolation, the lint gate, bulk replace, stored configs, PATCH.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config bodies carry ${ENV} and ${! } on purpose
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamsService } from '../../src/streams/service.js';
import type { Loose } from './support.js';
import { H, H_JSON, json, send, startService } from './support.js';

const LINT_SINGLE = `{
\t"input": {
\t\t"generate": {
\t\t\t"mapping": "root = deleted()"
\t\t}
\t},
\t"output": {
\t\t"type":"drop",
\t\t"inproc": "meow"
\t},
\t"cache_resources": [
\t\t{"label":"not_interested","memory":{}}
\t]
}`;

const LINT_BULK = `{
\t"foo": {
\t\t"input": {
\t\t\t"generate": {
\t\t\t\t"mapping": "root = deleted()"
\t\t\t}
\t\t},
\t\t"output": {
\t\t\t"type":"drop",
\t\t\t"inproc": "meow"
\t\t}
\t},
\t"bar": {
\t\t"input": {
\t\t\t"generate": {
\t\t\t\t"mapping": "root = deleted()"
\t\t\t},
\t\t\t"type": "inproc"
\t\t},
\t\t"output": {
\t\t\t"drop": {}
\t\t}
\t}
}`;

function withMapping(mapping: string) {
  return { input: { generate: { mapping } }, output: { drop: {} } };
}

type Detail = { active: boolean; config: Loose };

describe('stream config bodies', () => {
  let svc: StreamsService;
  before(async () => {
    process.env.NEKTON_T = 'root.meow = 5';
    delete process.env.NEKTON_UNSET;
    svc = await startService();
  });
  after(async () => {
    delete process.env.NEKTON_T;
    await svc.stop();
  });
  const get = async (id: string) => json(await send(svc, 'GET', `/streams/${id}`)) as Detail;

  it('14: POST bodies are env-interpolated; GET shows ${VAR} as posted (issue 17: never the value)', async () => {
    const body = '{"input":{"generate":{"mapping":"${NEKTON_T}"}},"output":{"type":"drop"}}';
    assert.equal((await send(svc, 'POST', '/streams/fooEnv?chilled=true', body)).status, 200);
    const d = await get('fooEnv');
    // Active: the stream was built with the expanded mapping (`${NEKTON_T}` itself does not parse).
    assert.equal(d.active, true);
    assert.equal(d.config.input.generate.mapping, '${NEKTON_T}');
    assert.equal(d.config.output.type, 'drop');
    assert.equal((await send(svc, 'DELETE', '/streams/fooEnv')).status, 200);
  });

  it('15: an undefined variable without default is 400', async () => {
    const body = '{"input":{"generate":{"mapping":"${NEKTON_UNSET}"}},"output":{"drop":{}}}';
    const r = await send(svc, 'POST', '/streams/x', body);
    assert.equal(r.status, 400);
    assert.ok(r.body.startsWith('Error: required environment variables were not set'), r.body);
    assert.equal((await send(svc, 'GET', '/streams/x')).status, 404);
  });

  it('16: a default is used when the variable is unset', async () => {
    const body =
      "input:\n  generate:\n    mapping: '${NEKTON_UNSET:root = deleted()}'\noutput:\n  drop: {}\n";
    assert.equal((await send(svc, 'POST', '/streams/x', body)).status, 200);
    assert.equal((await get('x')).config.input.generate.mapping, '${NEKTON_UNSET:root = deleted()}');
    assert.equal((await send(svc, 'DELETE', '/streams/x')).status, 200);
  });

  it('17: ${{VAR}} is an escape, and unknown keys are kept when chilled', async () => {
    const body = JSON.stringify({ ...H, x_note: '${{NEKTON_T}}' });
    assert.equal((await send(svc, 'POST', '/streams/x?chilled=true', body)).status, 200);
    // Read back as posted (issue 17), escape included.
    assert.equal((await get('x')).config.x_note, '${{NEKTON_T}}');
    assert.equal((await send(svc, 'DELETE', '/streams/x')).status, 200);
  });

  it('18: lints of a single stream, with lines of the body', async () => {
    const r = await send(svc, 'POST', '/streams/foo', LINT_SINGLE);
    assert.equal(r.status, 400);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(
      r.body,
      '{"linting_errors":["(9,1) field inproc is invalid when the component type is drop (output)","(11,1) field cache_resources not recognised"]}',
    );
    assert.equal((await send(svc, 'GET', '/streams/foo')).status, 404);
  });

  it('19: chilled skips the lint gate', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo?chilled=true', LINT_SINGLE)).status, 200);
    assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
  });

  it('20: lints of a bulk body name their stream', async () => {
    const r = await send(svc, 'POST', '/streams', LINT_BULK);
    assert.equal(r.status, 400);
    assert.equal(r.headers['content-type'], 'application/json');
    const lints = (json(r) as { linting_errors: string[] }).linting_errors;
    assert.deepEqual(
      new Set(lints),
      new Set([
        "stream 'foo': (10,1) field inproc is invalid when the component type is drop (output)",
        "stream 'bar': (15,1) field generate is invalid when the component type is inproc (input)",
      ]),
    );
  });

  it('21: a chilled bulk body is applied', async () => {
    const r = await send(svc, 'POST', '/streams?chilled=true', LINT_BULK);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(Object.keys(json(await send(svc, 'GET', '/streams'))).sort(), ['bar', 'foo']);
  });

  it('22: bulk POST replaces the whole set', async () => {
    assert.equal((await send(svc, 'POST', '/streams', JSON.stringify({ foo: H, bar: H }))).status, 200);
    const body = JSON.stringify({
      bar: withMapping('root = this.BAR_ONE'),
      bar2: withMapping('root = this.BAR_TWO'),
      baz: withMapping('root = this.BAZ_ONE'),
    });
    const r = await send(svc, 'POST', '/streams', body);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.body, '');
    assert.deepEqual(Object.keys(json(await send(svc, 'GET', '/streams'))), ['bar', 'bar2', 'baz']);
    assert.equal((await get('bar')).config.input.generate.mapping, 'root = this.BAR_ONE');
    assert.equal((await get('bar2')).config.input.generate.mapping, 'root = this.BAR_TWO');
    assert.equal((await get('baz')).config.input.generate.mapping, 'root = this.BAZ_ONE');
  });

  it('23: bulk POST stores configs without defaults', async () => {
    assert.equal((await send(svc, 'POST', '/streams', JSON.stringify({ foo: H }))).status, 200);
    const d = await get('foo');
    assert.deepEqual(d.config, H);
    assert.equal('interval' in d.config.input.generate, false);
  });

  it('24: single POST stores the config without defaults', async () => {
    assert.equal((await send(svc, 'POST', '/streams/single', H_JSON)).status, 200);
    assert.deepEqual((await get('single')).config, H);
  });

  it('25: an empty bulk body deletes every stream', async () => {
    const r = await send(svc, 'POST', '/streams', '');
    assert.equal(r.status, 200);
    assert.equal((await send(svc, 'GET', '/streams')).body, '{}');
  });

  it('26: PATCH merges into the stored config', async () => {
    assert.equal((await send(svc, 'POST', '/streams/foo?chilled=true', H_JSON)).status, 200);
    const r = await send(svc, 'PATCH', '/streams/foo', '{"input":{"generate":{"interval":"2s"}}}');
    assert.equal(r.status, 200, r.body);
    const d = await get('foo');
    assert.equal(d.active, true);
    assert.equal(d.config.input.generate.interval, '2s');
    assert.equal(d.config.input.generate.mapping, 'root = deleted()');
  });

  it('27: PATCH replaces lists wholesale', async () => {
    const two = { ...H, pipeline: { processors: [{ noop: {} }, { sleep: { duration: '1ms' } }] } };
    assert.equal((await send(svc, 'PUT', '/streams/foo', JSON.stringify(two))).status, 200);
    assert.equal(((await get('foo')).config.pipeline.processors as unknown as unknown[]).length, 2);
    const r = await send(svc, 'PATCH', '/streams/foo', '{"pipeline":{"processors":[{"noop":{}}]}}');
    assert.equal(r.status, 200, r.body);
    assert.deepEqual((await get('foo')).config.pipeline.processors, [{ noop: {} }]);
  });

  it('28: PATCH is not interpolated, is linted unless chilled, and null removes a key', async () => {
    const chilled = await send(svc, 'PATCH', '/streams/foo?chilled=true', '{"x_note":"${NEKTON_T}"}');
    assert.equal(chilled.status, 200, chilled.body);
    assert.equal((await get('foo')).config.x_note, '${NEKTON_T}');

    const strict = await send(svc, 'PATCH', '/streams/foo', '{"y_note":"${NEKTON_T}"}');
    assert.equal(strict.status, 400);
    const lints = (json(strict) as { linting_errors: string[] }).linting_errors;
    assert.ok(
      lints.some((l) => / field y_note not recognised$/.test(l)),
      String(lints),
    );
    assert.equal('y_note' in (await get('foo')).config, false, 'the stream is unchanged');

    const patch = await send(
      svc,
      'PATCH',
      '/streams/foo?chilled=true',
      '{"input":{"generate":{"interval":null}}}',
    );
    assert.equal(patch.status, 200, patch.body);
    assert.equal('interval' in (await get('foo')).config.input.generate, false);
  });

  it('decision 3: a PATCH body that is not an object is 400', async () => {
    for (const body of ['[1,2]', '"text"', '', '{nope']) {
      const r = await send(svc, 'PATCH', '/streams/foo', body);
      assert.equal(r.status, 400, `${body} → ${r.body}`);
      assert.ok(r.body.startsWith('Error: '), r.body);
    }
  });

  it('decision 10 and bad bodies: empty, invalid and non-object bodies are 400', async () => {
    for (const body of ['', '   \n', '{"input": ', '[1, 2]', '"just text"', '42']) {
      const r = await send(svc, 'POST', '/streams/bad', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${r.body}`);
      for (const chilled of [false, true]) {
        const c = await send(svc, 'POST', `/streams/bad${chilled ? '?chilled=true' : ''}`, body);
        assert.equal(c.status, 400, `${JSON.stringify(body)} chilled=${chilled} → ${c.body}`);
      }
    }
    assert.equal((await send(svc, 'GET', '/streams/bad')).status, 404);
    const bulk = await send(svc, 'POST', '/streams', '[1,2]');
    assert.equal(bulk.status, 400);
    assert.ok(bulk.body.startsWith('Error: '), bulk.body);
  });

  it('a YAML syntax error is a 400 naming its line in the body', async () => {
    const dup = 'input:\n  generate:\n    mapping: root = 1\ninput:\n  stdin: {}\n';
    const r = await send(svc, 'POST', '/streams/syntax', dup);
    assert.equal(r.status, 400);
    assert.equal(r.body, 'Error: line 4: Map keys must be unique\n');
    const bulk = await send(svc, 'POST', '/streams', '{\n  "a": {\n    "input": [\n  }\n}\n');
    assert.equal(bulk.status, 400);
    assert.equal(
      bulk.body,
      'Error: line 3: Flow sequence in block collection must be sufficiently indented and end with a ]\n',
    );
  });

  it('a body nested too deeply for the parser is a 400 that says so, and the server keeps serving', async () => {
    for (const body of ['['.repeat(100_000) + ']'.repeat(100_000), `a:\n  ${'- '.repeat(50_000)}x`]) {
      const r = await send(svc, 'POST', '/streams/deep', body);
      assert.equal(r.status, 400);
      assert.match(r.body, /nests deeper than \d+ levels/);
    }
    assert.equal((await send(svc, 'GET', '/ping')).status, 200);
    assert.equal((await send(svc, 'GET', '/streams/deep')).status, 404);
  });
});
