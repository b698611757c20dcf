// Streams mode's logs and metrics: API changes logged, the stream label on resource use, the
// prometheus exporter's add_process_metrics and metrics.mapping.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { waitFor } from '../helpers/kit.js';
import { H_JSON, json, send, startService, tempDir } from './support.js';

const HTTP = 'http:\n  address: 127.0.0.1:0\n';

const USES_UPPER = JSON.stringify({
  input: { generate: { mapping: 'root = "a"', interval: '10ms' } },
  pipeline: { processors: [{ resource: 'upper' }] },
  output: { drop: {} },
});

describe('streams mode observability', () => {
  it('logs each stream created, updated and deleted through the API', async () => {
    const log = join(tempDir(), 'nekton.log');
    const svc = await startService({
      observabilityYaml: `${HTTP}logger:\n  level: INFO\n  format: json\n  file:\n    path: ${log}\n`,
    });
    try {
      assert.equal((await send(svc, 'POST', '/streams/foo', H_JSON)).status, 200);
      assert.equal((await send(svc, 'PUT', '/streams/foo', H_JSON)).status, 200);
      assert.equal((await send(svc, 'PATCH', '/streams/foo', '{"buffer":{"memory":{}}}')).status, 200);
      assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
      assert.equal(
        (await send(svc, 'POST', '/streams', JSON.stringify({ bar: JSON.parse(H_JSON) }))).status,
        200,
      );
    } finally {
      await svc.stop();
    }
    const changes = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((record) => / through the API$/.test(record.msg))
      .map((record) => `${record.stream}: ${record.msg}`);
    assert.deepEqual(changes, [
      'foo: stream foo created through the API',
      'foo: stream foo updated through the API',
      'foo: stream foo updated through the API',
      'foo: stream foo deleted through the API',
      'bar: stream bar created through the API',
    ]);
  });

  it('counts a processor resource used by a stream under that stream, and forgets it with the stream', async () => {
    const svc = await startService({
      observabilityYaml: `${HTTP}logger:\n  level: OFF\nmetrics:\n  json_api: {}\nprocessor_resources:\n  - label: upper\n    mapping: root = content().uppercase()\n`,
    });
    const key = 'processor_received{label="upper",path="root.processor_resources",stream="foo"}';
    try {
      assert.equal((await send(svc, 'POST', '/streams/foo', USES_UPPER)).status, 200);
      const stats = await waitFor(async () => {
        const got = json(await send(svc, 'GET', '/streams/foo/stats'));
        return (got[key] as number) > 0 ? got : undefined;
      });
      assert.ok(
        (stats['processor_received{label="",path="root.pipeline.processors.0",stream="foo"}'] as number) > 0,
      );
      assert.equal((await send(svc, 'DELETE', '/streams/foo')).status, 200);
      const metrics = json(await send(svc, 'GET', '/metrics'));
      assert.equal(key in metrics, false);
    } finally {
      await svc.stop();
    }
  });

  it('counts input and output resources read and written by a stream under that stream', async () => {
    const svc = await startService({
      observabilityYaml: `${HTTP}logger:\n  level: OFF\nmetrics:\n  json_api: {}\ninput_resources:\n  - label: gen\n    generate: {mapping: 'root = "a"', interval: 10ms}\noutput_resources:\n  - label: sink\n    drop: {}\n`,
    });
    try {
      const body = JSON.stringify({ input: { resource: 'gen' }, output: { resource: 'sink' } });
      assert.equal((await send(svc, 'POST', '/streams/foo', body)).status, 200);
      const stats = await waitFor(async () => {
        const got = json(await send(svc, 'GET', '/streams/foo/stats'));
        return (got['output_sent{label="sink",path="root.output_resources",stream="foo"}'] as number) > 0
          ? got
          : undefined;
      });
      assert.ok(
        (stats['input_received{label="gen",path="root.input_resources",stream="foo"}'] as number) > 0,
      );
      assert.ok(
        (stats['output_batch_sent{label="sink",path="root.output_resources",stream="foo"}'] as number) > 0,
      );
    } finally {
      await svc.stop();
    }
  });

  it('leaves nothing of a deleted stream: no /metrics series, no manager entry, no endpoint', async () => {
    const svc = await startService({ observabilityYaml: `${HTTP}logger:\n  level: OFF\n` });
    try {
      for (const id of ['gone', 'kept'])
        assert.equal((await send(svc, 'POST', `/streams/${id}`, H_JSON)).status, 200);
      assert.match((await send(svc, 'GET', '/metrics')).body, /stream="gone"/);
      assert.equal((await send(svc, 'GET', '/gone/ready')).status, 200);
      assert.equal((await send(svc, 'DELETE', '/streams/gone')).status, 200);
      const text = (await send(svc, 'GET', '/metrics')).body;
      assert.doesNotMatch(text, /stream="gone"/);
      assert.match(text, /^input_received\{label="",path="root.input",stream="kept"\}/m);
      assert.equal(svc.manager.has('gone'), false);
      assert.deepEqual(
        svc.manager.entries().map((e) => e.id),
        ['kept'],
      );
      assert.equal((await send(svc, 'GET', '/gone/ready')).status, 404);
      assert.equal('/gone/ready' in svc.http.endpoints(), false);
      // The last stream gone: its metric families go too, not just their series.
      assert.equal((await send(svc, 'DELETE', '/streams/kept')).status, 200);
      assert.doesNotMatch((await send(svc, 'GET', '/metrics')).body, /^input_received/m);
    } finally {
      await svc.stop();
    }
  });

  it('exports process series only with add_process_metrics, and maps every stream series', async () => {
    const plain = await startService({ observabilityYaml: `${HTTP}logger:\n  level: OFF\n` });
    try {
      assert.equal((await send(plain, 'POST', '/streams/foo', H_JSON)).status, 200);
      const text = (await send(plain, 'GET', '/metrics')).body;
      assert.match(text, /^input_received\{label="",path="root.input",stream="foo"\}/m);
      assert.doesNotMatch(text, /^process_/m);
    } finally {
      await plain.stop();
    }
    const mapped = await startService({
      observabilityYaml: `${HTTP}logger:\n  level: OFF\nmetrics:\n  mapping: |\n    root = "nekton_" + this\n    meta stream = "s_" + @stream\n  prometheus:\n    add_process_metrics: true\n`,
    });
    try {
      assert.equal((await send(mapped, 'POST', '/streams/foo', H_JSON)).status, 200);
      const text = (await send(mapped, 'GET', '/metrics')).body;
      assert.match(text, /^process_cpu_user_seconds_total /m);
      assert.match(text, /^nekton_input_received\{label="",path="root.input",stream="s_foo"\}/m);
      assert.doesNotMatch(text, /^input_received/m);
    } finally {
      await mapped.stop();
    }
  });
});
