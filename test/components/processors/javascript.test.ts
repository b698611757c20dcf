// The javascript processor: the reference's benthos.v0_* API, its errors, batch failure as the
// reference does it, a runaway program stopped and flagged, and a context that cannot reach the host.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { javascriptProcessor, spec } from '../../../src/components/processors/javascript.js';
import type { Processor } from '../../../src/engine/component.js';
import { ConfigError } from '../../../src/engine/errors.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';

const opened: Processor[] = [];
after(async () => {
  for (const p of opened) await p.close();
});

async function build(code: string): Promise<Processor> {
  const p = (await spec.build(
    { code, file: undefined, global_folders: [] } as never,
    createTestContext(),
  )) as Processor;
  opened.push(p);
  return p;
}

interface Logged {
  level: string;
  text: string;
}

/** A processor with a short run limit and a logger that records what the program printed. */
function quick(
  code: string,
  runLimitMs = 1000,
  memoryMb?: number,
): { processor: Processor; logged: Logged[] } {
  const logged: Logged[] = [];
  const log = (level: string) => (text: string) => logged.push({ level, text });
  const logger = { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };
  const processor = javascriptProcessor(code, 'main.js', logger, { runLimitMs, memoryMb });
  opened.push(processor);
  return { processor, logged };
}

async function run(processor: Processor, ...inputs: Message[]): Promise<Message[]> {
  const out = await processor.process(inputs);
  return out.flat();
}

describe('javascript processor', () => {
  it('reads and sets the message as a string and as structured data', async () => {
    const p = await build('benthos.v0_msg_set_string(benthos.v0_msg_as_string() + " world");');
    const [out] = await run(p, new Message('hello'));
    assert.equal(out!.text(), 'hello world');

    const structured = await build(`(() => {
      let thing = benthos.v0_msg_as_structured();
      thing.num_keys = Object.keys(thing).length;
      delete thing["b"];
      benthos.v0_msg_set_structured(thing);
    })();`);
    const outs = await run(structured, new Message('{"a":1,"b":2}'), new Message('{"c":[1,2]}'));
    assert.deepEqual(
      outs.map((m) => m.structured()),
      [
        { a: 1, num_keys: 2 },
        { c: [1, 2], num_keys: 1 },
      ],
    );
    assert.ok(outs.every((m) => m.error === null || m.error === undefined));
  });

  it('reads, checks and sets metadata', async () => {
    const p = await build(`(() => {
      const has = benthos.v0_msg_exists_meta("topic");
      const missing = benthos.v0_msg_exists_meta("nope");
      benthos.v0_msg_set_meta("seen", { has, missing, topic: benthos.v0_msg_get_meta("topic") });
      benthos.v0_msg_set_meta("count", 3);
    })();`);
    const [out] = await run(p, new Message('x', new Map([['topic', 'orders']])));
    assert.deepEqual(out!.getMeta('seen'), { has: true, missing: false, topic: 'orders' });
    assert.equal(out!.getMeta('count'), 3);
    assert.equal(out!.text(), 'x');
  });

  it('throws the reference errors into the program, where they can be caught', async () => {
    const p = await build(`(() => {
      const errors = [];
      try { benthos.v0_msg_get_meta("absent"); } catch (e) { errors.push(e); }
      try { benthos.v0_msg_as_structured(); } catch (e) { errors.push(typeof e); }
      try { benthos.v0_msg_set_string(undefined); } catch (e) { errors.push(e); }
      benthos.v0_msg_set_structured(errors);
    })();`);
    const [out] = await run(p, new Message('not json'));
    assert.deepEqual(out!.structured(), ['key not found', 'string', 'argument at position 0 is undefined']);
  });

  it('fails the whole batch, unchanged and flagged, when the program throws', async () => {
    const p = await build(
      'if (benthos.v0_msg_as_string() === "bad") throw new Error("boom"); benthos.v0_msg_set_string("ok");',
    );
    const inputs = [new Message('good'), new Message('bad'), new Message('good')];
    const outs = await run(p, ...inputs);
    assert.equal(outs.length, 3);
    assert.deepEqual(
      outs.map((m) => m.text()),
      ['good', 'bad', 'good'],
    );
    for (const m of outs) assert.match(String(m.error?.message), /Error: boom/);
    // The inputs themselves are untouched (copy on write).
    assert.ok(inputs.every((m) => !m.error));
  });

  it('stops a runaway loop, flags the batch and keeps working afterwards', async () => {
    const { processor } = quick(
      'if (benthos.v0_msg_as_string() === "loop") { while (true) {} } benthos.v0_msg_set_string("done");',
    );
    const [stopped] = await run(processor, new Message('loop'));
    assert.match(String(stopped!.error?.message), /timed out after 1000ms and was stopped/);
    assert.equal(stopped!.text(), 'loop');
    const [next] = await run(processor, new Message('fine'));
    assert.equal(next!.error ?? null, null);
    assert.equal(next!.text(), 'done');
  });

  it('stops runaway promise jobs, getters of a thrown value and a program out of memory', async () => {
    const jobs = quick('(function spin() { Promise.resolve().then(spin); })();');
    const [a] = await run(jobs.processor, new Message('x'));
    assert.match(String(a!.error?.message), /timed out/);
    const getter = quick('throw { get message() { while (true) {} } };');
    const [b] = await run(getter.processor, new Message('x'));
    assert.match(String(b!.error?.message), /timed out/);
    const hungry = quick('const a = []; while (true) a.push(new Array(1e5).fill(a.length));', 60_000, 16);
    const [c] = await run(hungry.processor, new Message('x'));
    assert.match(String(c!.error?.message), /javascript program (failed|stopped)/);
    // Each gets a fresh worker for the next batch.
    const [d] = await run(hungry.processor, new Message('y'));
    assert.match(String(d!.error?.message), /javascript program (failed|stopped)/);
  });

  it('cannot reach process, require or the host through any object it is given', async () => {
    const probes = [
      'typeof process',
      '(() => { try { return typeof require("fs"); } catch (e) { return "blocked"; } })()',
      'typeof module',
      'typeof globalThis.process',
      '(() => { try { return typeof this.constructor.constructor("return process")(); } catch (e) { return "blocked"; } })()',
      '(() => { try { return typeof benthos.v0_msg_as_string.constructor("return process")(); } catch (e) { return "blocked"; } })()',
      '(() => { try { benthos.v0_msg_get_meta("x"); } catch (e) { return typeof e; } })()',
      '(() => { try { return typeof console.log.constructor("return process")(); } catch (e) { return "blocked"; } })()',
      '(() => { try { return typeof require.constructor("return process")(); } catch (e) { return "blocked"; } })()',
      '(() => { try { return typeof Object.getPrototypeOf(benthos).constructor.constructor("return process")(); } catch (e) { return "blocked"; } })()',
    ];
    const p = await build(`benthos.v0_msg_set_structured([${probes.join(', ')}]);`);
    const [out] = await run(p, new Message(''));
    const seen = out!.structured() as string[];
    assert.equal(seen.length, probes.length);
    // Each probe finds nothing (undefined) or is refused (blocked); the thrown API error is a string.
    seen.forEach((v, i) => {
      if (i === 6) assert.equal(v, 'string');
      else assert.ok(v === 'undefined' || v === 'blocked', `probe ${i} reached ${v}: ${probes[i]}`);
    });
  });

  it('sees an unhandled rejection of the program as its failure', async () => {
    const p = await build('Promise.reject(new Error("later"));');
    const [out] = await run(p, new Message('x'));
    assert.match(String(out!.error?.message), /Error: later/);
  });

  it('survives a program that fails between batches', async () => {
    // A cleanup callback that throws runs whenever the collector gets to it, maybe after the batch.
    const p = await build(`(() => {
      const registry = new FinalizationRegistry(() => { throw new Error("late"); });
      for (let i = 0; i < 1000; i++) registry.register({ big: new Array(1000).fill(i) }, i);
      benthos.v0_msg_set_string("registered");
    })();`);
    for (let i = 0; i < 5; i++) {
      const [out] = await run(p, new Message('x'));
      assert.ok(out!.text() === 'registered' || /late/.test(String(out!.error?.message)), out!.text());
    }
  });

  it('finishes promise jobs of the program before its message is done', async () => {
    const p = await build('Promise.resolve().then(() => benthos.v0_msg_set_string("async"));');
    const [out] = await run(p, new Message('x'));
    assert.equal(out!.text(), 'async');
  });

  it('requires CommonJS modules from relative paths, node_modules and global folders, isolated too', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-js-mod-'));
    const globals = join(dir, 'globals');
    await mkdir(join(dir, 'lib'), { recursive: true });
    await mkdir(join(dir, 'node_modules', 'pkg'), { recursive: true });
    await mkdir(join(globals, 'shared'), { recursive: true });
    await writeFile(
      join(dir, 'lib', 'util.js'),
      'exports.twice = (s) => s + s; exports.name = require("./data.json").name;',
    );
    await writeFile(join(dir, 'lib', 'data.json'), '{"name":"data"}');
    await writeFile(join(dir, 'node_modules', 'pkg', 'package.json'), '{"main":"main.js"}');
    await writeFile(
      join(dir, 'node_modules', 'pkg', 'main.js'),
      'module.exports = { up: (s) => s.toUpperCase(), proc: typeof process };',
    );
    await writeFile(join(globals, 'shared', 'index.js'), 'module.exports = "from globals";');
    const program = join(dir, 'main.js');
    await writeFile(
      program,
      `(() => {
        const util = require("./lib/util");
        const pkg = require("pkg");
        const again = require("./lib/util.js");
        const refused = [];
        for (const m of ["fs", "child_process", "./missing"]) {
          try { require(m); refused.push("loaded " + m); } catch (e) { refused.push(e); }
        }
        benthos.v0_msg_set_structured({
          twice: util.twice(benthos.v0_msg_as_string()),
          name: util.name,
          up: pkg.up("x"),
          proc: pkg.proc,
          cached: util === again,
          shared: require("shared"),
          consoleIsConsole: require("console") === console,
          refused,
        });
      })();`,
    );
    const p = (await spec.build(
      { code: undefined, file: program, global_folders: [globals] } as never,
      createTestContext(),
    )) as Processor;
    opened.push(p);
    const [out] = await run(p, new Message('ab'));
    assert.deepEqual(out!.structured(), {
      twice: 'abab',
      name: 'data',
      up: 'X',
      proc: 'undefined',
      cached: true,
      shared: 'from globals',
      consoleIsConsole: true,
      refused: ['Invalid module', 'Invalid module', 'Invalid module'],
    });
  });

  it('keeps global state between runs, so a global const fails the second run as in the reference', async () => {
    const p = await build('const seen = benthos.v0_msg_as_string(); benthos.v0_msg_set_string(seen + "!");');
    const [first] = await run(p, new Message('a'));
    assert.equal(first!.text(), 'a!');
    const [second] = await run(p, new Message('b'));
    assert.match(String(second!.error?.message), /Identifier 'seen' has already been declared/);
  });

  it('prints console output through the logger', async () => {
    const { processor, logged } = quick('console.log("hello", {a: 1}, 2); console.warn("careful");');
    await run(processor, new Message('x'));
    assert.deepEqual(logged, [
      { level: 'info', text: 'hello {"a":1} 2' },
      { level: 'warn', text: 'careful' },
    ]);
  });

  it('logs through a logger whose methods need their object, as pino does', async () => {
    const lines: string[] = [];
    const logger = {
      lines,
      info(this: { lines: string[] }, text: string) {
        this.lines.push(`info ${text}`);
      },
      warn(this: { lines: string[] }, text: string) {
        this.lines.push(`warn ${text}`);
      },
      error(this: { lines: string[] }, text: string) {
        this.lines.push(`error ${text}`);
      },
      debug(this: { lines: string[] }, text: string) {
        this.lines.push(`debug ${text}`);
      },
    };
    const p = javascriptProcessor('console.log("a"); console.error("b");', 'main.js', logger);
    opened.push(p);
    await run(p, new Message('x'));
    assert.deepEqual(lines, ['info a', 'error b']);
  });

  it('reads the program from a file, and refuses a missing file or bad code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-js-'));
    const path = join(dir, 'prog.js');
    await writeFile(path, 'benthos.v0_msg_set_string("from file");');
    const p = (await spec.build(
      { code: undefined, file: path, global_folders: [] } as never,
      createTestContext(),
    )) as Processor;
    assert.equal((await run(p, new Message('x')))[0]!.text(), 'from file');
    await assert.rejects(
      async () =>
        spec.build(
          { code: undefined, file: join(dir, 'nope.js'), global_folders: [] } as never,
          createTestContext(),
        ),
      (err: unknown) => err instanceof ConfigError && /opening target file/.test(err.message),
    );
    await assert.rejects(async () => build('let = ;'), /compiling javascript code: Unexpected/);
  });

  it('lints code and file as the reference does, and code that does not compile', () => {
    const lint = (config: Record<string, unknown>) =>
      spec.lint?.({ global_folders: [], ...config } as never) ?? [];
    assert.deepEqual(lint({}), ['either the code or file field must be specified']);
    assert.deepEqual(lint({ code: 'x', file: 'y.js' }), ['cannot specify both the code and file fields']);
    assert.deepEqual(lint({ code: '1 +' }).length, 1);
    assert.match(String(lint({ code: '1 +' })[0]), /^compiling javascript code: Unexpected/);
    assert.deepEqual(lint({ code: 'benthos.v0_msg_as_string();' }), []);
  });
});
