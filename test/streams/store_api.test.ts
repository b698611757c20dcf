// biome-ignore-all lint/suspicious/noTemplateCurlyInString: env references in stream configs, not JS templates
// Issue 23 part 1, in process on a file store: every API change reaches the store before its
// answer, and one refused (a config that does not build) leaves the store as it was; PATCH keeps
// the posted form; bulk POST, resource DELETE; stream files are not stored and win over the store;
// the observability config's `streams.store` names the store.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FileStore } from '../../src/streams/store/file.js';
import type { StoredRecord } from '../../src/streams/store/store.js';
import { json, send, startService, tempDir } from './support.js';

const H_YAML = 'input:\n  generate:\n    mapping: root = deleted()\noutput:\n  drop: {}\n';

async function stored(dir: string): Promise<Map<string, StoredRecord['value']>> {
  const records = await new FileStore(dir).open();
  return new Map(records.map((r) => [`${r.section}/${r.id}`, r.value]));
}

async function storedInput(dir: string, key: string): Promise<unknown> {
  const config = (await stored(dir)).get(key)?.config as { input?: unknown } | undefined;
  return config?.input;
}

function observability(storeDir?: string): string {
  const store = storeDir === undefined ? '' : `streams:\n  store: file:${storeDir}\n`;
  return `http:\n  address: 127.0.0.1:0\nlogger:\n  level: OFF\n${store}`;
}

describe('stream store: API changes', () => {
  it('PUT and PATCH are stored before the answer; a refused PUT leaves the store as it was', async () => {
    const dir = tempDir();
    const svc = await startService({ store: `file:${dir}` });
    try {
      process.env.STORE_API_TEST_VALUE = 'expanded';
      const posted =
        'input:\n  generate:\n    mapping: root = "${STORE_API_TEST_VALUE}"\noutput:\n  drop: {}\n';
      assert.equal((await send(svc, 'POST', '/streams/s', posted)).status, 200);
      assert.deepEqual((await stored(dir)).get('streams/s'), {
        config: {
          input: { generate: { mapping: 'root = "${STORE_API_TEST_VALUE}"' } },
          output: { drop: {} },
        },
        interpolate: true,
      });

      const missing = 'input:\n  resource: nowhere\noutput:\n  drop: {}\n';
      const refused = await send(svc, 'PUT', '/streams/s', missing);
      assert.notEqual(refused.status, 200);
      assert.deepEqual(await storedInput(dir, 'streams/s'), {
        generate: { mapping: 'root = "${STORE_API_TEST_VALUE}"' },
      });

      assert.equal((await send(svc, 'PUT', '/streams/s', H_YAML)).status, 200);
      assert.deepEqual((await stored(dir)).get('streams/s'), {
        config: { input: { generate: { mapping: 'root = deleted()' } }, output: { drop: {} } },
        interpolate: false,
      });

      assert.equal((await send(svc, 'PUT', '/streams/s', posted)).status, 200);
      assert.equal(
        (await send(svc, 'PATCH', '/streams/s', '{"output": {"drop": null, "reject": "no"}}')).status,
        200,
      );
      assert.deepEqual((await stored(dir)).get('streams/s'), {
        config: {
          input: { generate: { mapping: 'root = "${STORE_API_TEST_VALUE}"' } },
          output: { reject: 'no' },
        },
        interpolate: true,
      });
    } finally {
      delete process.env.STORE_API_TEST_VALUE;
      await svc.stop();
    }
  });

  it('bulk POST /streams stores the new set; DELETE /resources removes the stored resource', async () => {
    const dir = tempDir();
    const svc = await startService({ store: `file:${dir}` });
    try {
      assert.equal((await send(svc, 'POST', '/streams/old', H_YAML)).status, 200);
      const h = { input: { generate: { mapping: 'root = deleted()' } }, output: { drop: {} } };
      const body = JSON.stringify({ a: h, b: h });
      assert.equal((await send(svc, 'POST', '/streams', body)).status, 200);
      assert.deepEqual([...(await stored(dir)).keys()].sort(), ['streams/a', 'streams/b']);

      assert.equal((await send(svc, 'POST', '/resources/cache/c', 'memory: {}\n')).status, 200);
      assert.ok((await stored(dir)).has('cache_resources/c'));
      assert.equal((await send(svc, 'DELETE', '/resources/cache/c')).status, 200);
      assert.ok(!(await stored(dir)).has('cache_resources/c'));
    } finally {
      await svc.stop();
    }
  });

  it('stream files are not stored, and a file wins over a stored stream of the same id', async () => {
    const dir = tempDir();
    const files = tempDir();
    const first = await startService({ store: `file:${dir}` });
    try {
      const other = 'input:\n  generate:\n    mapping: root = "from the store"\noutput:\n  drop: {}\n';
      assert.equal((await send(first, 'POST', '/streams/shared', other)).status, 200);
      assert.equal((await send(first, 'POST', '/streams/api_only', other)).status, 200);
    } finally {
      await first.stop();
    }
    writeFileSync(join(files, 'shared.yaml'), H_YAML);
    const second = await startService({ store: `file:${dir}`, paths: [join(files, 'shared.yaml')] });
    try {
      assert.deepEqual(Object.keys(json(await send(second, 'GET', '/streams'))), ['api_only', 'shared']);
      const shared = json(await send(second, 'GET', '/streams/shared')) as { config: { input: unknown } };
      assert.deepEqual(shared.config.input, { generate: { mapping: 'root = deleted()' } });
      // The file's stream runs from its file: the stored copy is left as it was.
      assert.deepEqual(await storedInput(dir, 'streams/shared'), {
        generate: { mapping: 'root = "from the store"' },
      });
    } finally {
      await second.stop();
    }
  });

  it('members posted to a dynamic output are kept, come back after a restart, and go with their stream', async () => {
    const dir = tempDir();
    const config =
      'input:\n  generate:\n    interval: 50ms\n    mapping: root = "x"\noutput:\n  dynamic:\n    outputs: {}\n';
    const first = await startService({ store: `file:${dir}` });
    try {
      assert.equal((await send(first, 'POST', '/streams/d', config)).status, 200);
      assert.equal((await send(first, 'POST', '/d/outputs/m1', 'drop: {}\n')).status, 200);
      assert.equal((await send(first, 'POST', '/d/outputs/m2', 'drop: {}\n')).status, 200);
      assert.equal((await send(first, 'DELETE', '/d/outputs/m2')).status, 200);
      assert.deepEqual((await stored(dir)).get('dynamic_members/d/root.output/m1'), {
        config: 'drop: {}\n',
        interpolate: false,
      });
      assert.ok(!(await stored(dir)).has('dynamic_members/d/root.output/m2'));
    } finally {
      await first.stop();
    }
    const second = await startService({ store: `file:${dir}` });
    try {
      assert.deepEqual(Object.keys(json(await send(second, 'GET', '/d/outputs'))), ['m1']);
      assert.equal((await send(second, 'DELETE', '/streams/d')).status, 200);
      assert.deepEqual([...(await stored(dir)).keys()], []);
    } finally {
      await second.stop();
    }
  });

  it("the observability config's streams.store names the store; --store overrides it", async () => {
    const fromConfig = tempDir();
    const fromFlag = tempDir();
    const svc = await startService({ observabilityYaml: observability(fromConfig) });
    try {
      assert.equal((await send(svc, 'POST', '/streams/x', H_YAML)).status, 200);
      assert.ok((await stored(fromConfig)).has('streams/x'));
    } finally {
      await svc.stop();
    }
    const flagged = await startService({
      observabilityYaml: observability(fromConfig),
      store: `file:${fromFlag}`,
    });
    try {
      assert.deepEqual(Object.keys(json(await send(flagged, 'GET', '/streams'))), []);
      assert.equal((await send(flagged, 'POST', '/streams/y', H_YAML)).status, 200);
      assert.ok((await stored(fromFlag)).has('streams/y'));
      assert.ok(!(await stored(fromConfig)).has('streams/y'));
    } finally {
      await flagged.stop();
    }
  });
});
