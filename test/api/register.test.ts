// Plugin components registered through the public API: they lint with their fields, appear in the
// process registry (so `nekton list` and docs show them), build, and get acks from the engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  field,
  Message,
  parseMapping,
  registerBatchProcessor,
  registerBloblangFunction,
  registerBloblangMethod,
  registerCache,
  registerInput,
  registerOutput,
  registerProcessor,
  registerRateLimit,
  StreamBuilder,
} from '../../src/api/index.js';
import { processRegistry } from '../../src/plugins/process_registry.js';

const quiet = 'logger: { level: NONE }\n';

/** Runs `yaml` with a producer sending `inputs` (unless `withInput`) and returns what the consumer saw. */
async function run(yaml: string, inputs: string[] = [], withInput = false): Promise<string[]> {
  const builder = new StreamBuilder().setYaml(quiet + yaml);
  const send = withInput ? undefined : builder.addProducerFunc();
  const seen: string[] = [];
  builder.addConsumerFunc((m) => {
    seen.push(m.asString());
  });
  const stream = await builder.build();
  const running = stream.run();
  if (send) {
    for (const text of inputs) await send(text);
    send.end();
  }
  await running;
  return seen;
}

describe('register*', () => {
  registerProcessor({
    name: 'test_suffix',
    summary: 'Appends a suffix.',
    fields: [field.string('suffix', 'Appended.'), field.duration('pause', 'Unused.', { default: '1s' })],
    build: (config) => {
      assert.equal(config.pause, 1000, 'durations arrive parsed');
      return {
        process: (m) => {
          if (m.asString() === 'boom') throw new Error('cannot suffix boom');
          return m.withContent(m.asString() + config.suffix);
        },
      };
    },
  });

  it('a processor plugin builds from its fields and runs in a stream', async () => {
    assert.deepEqual(
      await run('pipeline:\n  processors:\n    - test_suffix: { suffix: "!" }\n', ['a', 'b']),
      ['a!', 'b!'],
    );
  });

  it('a processor that throws flags the message, which catch can handle', async () => {
    const yaml =
      'pipeline:\n  processors:\n    - test_suffix: { suffix: "!" }\n    - catch:\n        - mapping: root = "caught " + error()\n';
    assert.deepEqual(await run(yaml, ['boom']), ['caught cannot suffix boom']);
  });

  it('a plugin is linted by its fields and listed in the process registry', async () => {
    assert.ok(processRegistry().has('processor', 'test_suffix'));
    await assert.rejects(
      run('pipeline:\n  processors:\n    - test_suffix: { sufix: "!" }\n', []),
      /stream\.yaml\(\d+,\d+\) field sufix not recognised/,
    );
  });

  it('refuses a built-in name and a name registered twice', () => {
    const spec = { summary: 's', fields: [], build: () => ({ process: (m: Message) => m }) };
    assert.throws(() => registerProcessor({ name: 'mapping', ...spec }), /built-in has that name/);
    assert.throws(() => registerProcessor({ name: 'test_suffix', ...spec }), /registered twice/);
  });

  it('a batch processor sees the whole batch', async () => {
    registerBatchProcessor({
      name: 'test_count_batch',
      summary: 'Replaces each batch by its size.',
      fields: [],
      build: () => ({ processBatch: (messages) => [[new Message(String(messages.length))]] }),
    });
    const yaml =
      'input:\n  generate: { count: 4, interval: "", batch_size: 2, mapping: root = "x" }\npipeline:\n  processors:\n    - test_count_batch: {}\n';
    assert.deepEqual(await run(yaml, [], true), ['2', '2']);
  });

  it('an input plugin is read to its end and its acks report delivery', async () => {
    const acks: Array<string | null> = [];
    registerInput({
      name: 'test_letters',
      summary: 'a, b, c',
      fields: [field.string('letters', 'Sent one by one.')],
      build: (config) => {
        const left = [...config.letters];
        return {
          read: async () => {
            const letter = left.shift();
            if (letter === undefined) return null;
            return {
              messages: [new Message(letter)],
              ack: (err) => void acks.push(err ? err.message : null),
            };
          },
        };
      },
    });
    const builder = new StreamBuilder().setYaml(`${quiet}input:\n  test_letters: { letters: abc }\n`);
    const seen: string[] = [];
    builder.addConsumerFunc((m) => {
      if (m.asString() === 'b') throw new Error('no b');
      seen.push(m.asString());
    });
    await (await builder.build()).run();
    assert.deepEqual(seen, ['a', 'c']);
    assert.deepEqual(acks, [null, 'no b', null]);
  });

  it('an output plugin receives every message', async () => {
    const written: string[] = [];
    registerOutput({
      name: 'test_collect',
      summary: 'Collects.',
      fields: [field.string('prefix', 'Prepended.', { default: '' })],
      build: (config) => ({
        write: async (messages) => {
          for (const m of messages) written.push(config.prefix + m.asString());
        },
      }),
    });
    const builder = new StreamBuilder().setYaml(`${quiet}output:\n  test_collect: { prefix: "> " }\n`);
    const send = builder.addProducerFunc();
    const stream = await builder.build();
    const running = stream.run();
    await send('x');
    send.end();
    await running;
    assert.deepEqual(written, ['> x']);
  });

  it('cache and rate limit plugins serve the built-in processors that use them', async () => {
    const store = new Map<string, Uint8Array>();
    let accesses = 0;
    registerCache({
      name: 'test_map_cache',
      summary: 'A Map.',
      fields: [],
      build: () => ({
        get: async (key) => store.get(key),
        set: async (key, value) => void store.set(key, value),
        delete: async (key) => void store.delete(key),
      }),
    });
    registerRateLimit({
      name: 'test_count_limit',
      summary: 'Always allows, counting.',
      fields: [],
      build: () => ({
        access: async () => {
          accesses += 1;
          return 0;
        },
      }),
    });
    const yaml = [
      'cache_resources:',
      '  - label: kv',
      '    test_map_cache: {}',
      'rate_limit_resources:',
      '  - label: limit',
      '    test_count_limit: {}',
      'pipeline:',
      '  processors:',
      '    - rate_limit: { resource: limit }',
      `    - cache: { resource: kv, operator: set, key: k, value: "${'$'}{! content() }" }`,
      '',
    ].join('\n');
    await run(yaml, ['stored']);
    assert.equal(Buffer.from(store.get('k')!).toString(), 'stored');
    assert.equal(accesses, 1);
  });

  it('Bloblang functions and methods are callable from mappings', () => {
    registerBloblangFunction({
      name: 'test_answer',
      params: [{ name: 'plus', type: 'integer', default: 0 }],
      impl: ([plus]) => 42 + Number(plus),
    });
    registerBloblangMethod({ name: 'test_twice', impl: (target) => `${target}${target}` });
    assert.equal(parseMapping('root = test_answer(plus: 1)').query(null), 43);
    assert.equal(parseMapping('root = this.s.test_twice()').query({ s: 'ab' }), 'abab');
    assert.throws(() => registerBloblangFunction({ name: 'now', impl: () => 1 }), /already exists/);
  });
});
