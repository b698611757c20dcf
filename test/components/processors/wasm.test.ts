import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spec } from '../../../src/components/processors/wasm.js';
import type { Processor } from '../../../src/engine/component.js';
import { Message } from '../../../src/message/message.js';
import { tempDir } from '../../helpers/cli.js';
import { createTestContext } from '../../helpers/context.js';
import { uppercaseModule } from './wasm_module.js';

const modulePath = (() => {
  const path = join(tempDir('nekton-wasm-'), 'uppercase.wasm');
  writeFileSync(path, uppercaseModule());
  return path;
})();

async function wasm(fn = 'process'): Promise<Processor> {
  return spec.build({ module_path: modulePath, function: fn }, createTestContext());
}

describe('wasm processor', () => {
  it('makes its WASI instance without Node printing an ExperimentalWarning', async () => {
    // A child process: Node warns once per process, and this file's other tests build WASI too.
    const script = [
      `import { spec } from ${JSON.stringify(new URL('../../../src/components/processors/wasm.ts', import.meta.url).href)};`,
      `import { createTestContext } from ${JSON.stringify(new URL('../../helpers/context.ts', import.meta.url).href)};`,
      `await spec.build({ module_path: ${JSON.stringify(modulePath)}, function: 'process' }, createTestContext());`,
      "process.stdout.write('built');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    assert.equal(run.stdout, 'built', run.stderr);
    assert.doesNotMatch(run.stderr, /ExperimentalWarning/);
  });

  it('runs the module function on each message through the benthos_wasm ABI', async () => {
    const p = await wasm();
    const batch = [new Message('hello world'), new Message('Mixed 123 case')];
    const [out] = (await p.process(batch)) as Message[][];
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['HELLO WORLD', 'MIXED 123 CASE'],
    );
    assert.equal(out![0]!.getMeta('touched'), 'yes');
    assert.equal(batch[0]!.text(), 'hello world', 'the input messages are not changed');
    // The module's allocator keeps its state between calls; a second batch works the same.
    const [again] = (await p.process([new Message('again')])) as Message[][];
    assert.equal(again![0]!.text(), 'AGAIN');
  });

  it('reads metadata through v0_msg_get_meta', async () => {
    const p = await wasm('get_meta_copy');
    const msg = new Message('ignored');
    msg.setMeta('k', 'from metadata');
    const [out] = (await p.process([msg, new Message('no key')])) as Message[][];
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['from metadata', ''],
    );
  });

  it('flags every message of the batch when the module traps', async () => {
    const p = await wasm('trap');
    const [out] = (await p.process([new Message('a'), new Message('b')])) as Message[][];
    assert.deepEqual(
      out!.map((m) => [m.text(), m.error instanceof Error]),
      [
        ['a', true],
        ['b', true],
      ],
    );
  });

  it('ships the same module as test/fixtures/wasm/uppercase.wasm (the documented example runs it)', () => {
    const fixture = readFileSync(new URL('../../fixtures/wasm/uppercase.wasm', import.meta.url));
    assert.deepEqual(new Uint8Array(fixture), uppercaseModule());
  });

  it('fails to build when the function or the file does not exist', async () => {
    await assert.rejects(wasm('nope'), /no function named "nope"/);
    await assert.rejects(
      Promise.resolve().then(() =>
        spec.build(
          { module_path: join(tempDir(), 'missing.wasm'), function: 'process' },
          createTestContext(),
        ),
      ),
      /ENOENT/,
    );
  });
});
