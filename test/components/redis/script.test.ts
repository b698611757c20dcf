// The redis_script processor against the local Redis: KEYS and ARGV from the mappings, the
// result as the new content, EVAL after a SCRIPT FLUSH, errors flagged, and a killed connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { normaliseComponent } from '../../../src/config/normalise.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { createTestEnv } from '../../helpers/context.js';
import { requireService } from '../../helpers/kit.js';
import { Admin, REDIS_URL, uniqueName } from './helpers.js';

const provider = schemaProvider(registry);
const env = createTestEnv();

async function build(raw: Record<string, unknown>): Promise<Processor> {
  const cfg = normaliseComponent(
    'processor',
    { redis_script: { url: REDIS_URL, ...raw } },
    { docPath: [], configPath: 'root.processor' },
    { provider },
  );
  return (await env.builder.buildProcessor(cfg)) as Processor;
}

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider, bloblang: bloblangChecker }).map(formatApiLint);

let admin: Admin;

describe('redis_script', () => {
  before(async () => {
    admin = await Admin.open().catch(() => null as unknown as Admin);
  });
  after(async () => {
    await admin?.cleanup();
  });

  it('runs the script with KEYS and ARGV from the mappings and replaces the content with the result', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const key = uniqueName('script');
    admin.track(key);
    const proc = await build({
      script: "redis.call('INCRBY', KEYS[1], ARGV[1]); return {KEYS[1], redis.call('GET', KEYS[1])}",
      keys_mapping: 'root = [ this.key ]',
      args_mapping: 'root = [ this.n ]',
    });
    try {
      const [out] = await proc.process([
        new Message(JSON.stringify({ key, n: 2 })),
        new Message(JSON.stringify({ key, n: 5 })),
      ]);
      assert.deepEqual(
        out?.map((m) => m.structured()),
        [
          [key, '2'],
          [key, '7'],
        ],
      );
      assert.equal(await admin.send('GET', key), '7');
      // Scripts flushed from the server are sent again with EVAL.
      await admin.send('SCRIPT', 'FLUSH');
      const [again] = await proc.process([new Message(JSON.stringify({ key, n: 1 }))]);
      assert.equal(again?.[0]?.error ?? null, null);
      assert.equal(await admin.send('GET', key), '8');
    } finally {
      await proc.close();
    }
  });

  it('flags messages whose mapping is not an array, whose script fails, or whose result is nil', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const proc = await build({
      script:
        "if ARGV[1] == 'boom' then return redis.error_reply('ERR boom') end if ARGV[1] == 'nil' then return nil end return ARGV[1]",
      keys_mapping: 'root = if this.nokeys == true { "x" } else { [] }',
      args_mapping: 'root = [ this.v ]',
      retries: 1,
      retry_period: '1ms',
    });
    try {
      const [out] = await proc.process([
        new Message('{"v":"ok"}'),
        new Message('{"v":"boom"}'),
        new Message('{"v":"nil"}'),
        new Message('{"v":"ok","nokeys":true}'),
      ]);
      assert.equal(out?.[0]?.text(), 'ok');
      assert.equal(out?.[0]?.error ?? null, null);
      assert.match(String(out?.[1]?.error?.message), /boom/);
      assert.equal(out?.[2]?.error?.message, 'redis: nil');
      assert.equal(
        out?.[3]?.error?.message,
        'keys_mapping failed: mapping returned non-array result: string',
      );
    } finally {
      await proc.close();
    }
  });

  it('reconnects on the next message after its connection is killed', async (t) => {
    if (!(await requireService(t, 'redis'))) return;
    const name = `nekton-script-${process.pid}-${Date.now()}`;
    const proc = await build({
      client_name: name,
      script: 'return ARGV[1]',
      keys_mapping: 'root = []',
      args_mapping: 'root = [ content().string() ]',
      retries: 2,
      retry_period: '10ms',
    });
    try {
      const [first] = await proc.process([new Message('a')]);
      assert.equal(first?.[0]?.text(), 'a');
      assert.equal(await admin.killClients(name), 1);
      const [second] = await proc.process([new Message('b')]);
      assert.equal(second?.[0]?.error ?? null, null);
      assert.equal(second?.[0]?.text(), 'b');
    } finally {
      await proc.close();
    }
  });

  it('lints a missing keys_mapping and a bad mapping at their lines', () => {
    const head =
      'input:\n  generate:\n    mapping: root = 1\npipeline:\n  processors:\n    - redis_script:\n';
    const missing = lint(
      `${head}        url: redis://127.0.0.1:6379\n        script: return 1\n        args_mapping: root = []\noutput:\n  drop: {}\n`,
    );
    assert.equal(missing.length, 1, JSON.stringify(missing));
    assert.match(missing[0] as string, /keys_mapping/);
    const bad = lint(
      `${head}        url: redis://127.0.0.1:6379\n        script: return 1\n        args_mapping: root = [\n        keys_mapping: root = []\noutput:\n  drop: {}\n`,
    );
    assert.equal(bad.length, 1, JSON.stringify(bad));
    assert.match(bad[0] as string, /^\(9,/);
  });
});
