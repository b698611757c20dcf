// The command processor: one program run per message, stdin to stdout, errors and stderr as the
// reference reports them. Uses programs every Linux machine has (cat, sh, tr).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Message } from '../../../src/message/message.js';
import { batchOf, processor, run, texts } from '../bloblang_components/build.js';

describe('command processor', () => {
  it('pipes each message through the program and replaces it with stdout', async () => {
    const p = await processor({ command: { name: 'tr', args_mapping: '[ "a-z", "A-Z" ]' } });
    const [out] = await run(p, [new Message('hello', new Map([['k', 'v']])), new Message('world')]);
    assert.deepEqual(
      out!.map((m) => m.text()),
      ['HELLO', 'WORLD'],
    );
    assert.equal(out![0]!.getMeta('k'), 'v');
    assert.ok(out!.every((m) => m.error === null));
  });

  it('takes the name and arguments from each message, passing arguments without a shell', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
    const p = await processor({ command: { name: '${! this.cmd }', args_mapping: 'this.args' } });
    const out = await run(p, batchOf('{"cmd":"echo","args":["$HOME; echo", 3]}'));
    assert.deepEqual(texts(out), [['$HOME; echo 3\n']]);
  });

  it('keeps stderr of a successful run in command_stderr', async () => {
    const p = await processor({ command: { name: 'sh', args_mapping: '[ "-c", "cat; echo warn >&2" ]' } });
    const [[out]] = await run(p, batchOf('in'));
    assert.equal(out!.text(), 'in');
    assert.equal(out!.getMeta('command_stderr'), 'warn\n');
  });

  it('flags the message with the exit status and stderr when the program fails, leaving it unchanged', async () => {
    const p = await processor({
      command: { name: 'sh', args_mapping: '[ "-c", "echo broken >&2; exit 3" ]' },
    });
    const [[out]] = await run(p, batchOf('keep me'));
    assert.equal(out!.text(), 'keep me');
    assert.equal(out!.error!.message, 'execution error: exit status 3: broken\n');
  });

  it('flags a message when the program does not exist or the args mapping is not an array', async () => {
    const missing = await processor({ command: { name: 'no-such-program-nekton' } });
    const [[a]] = await run(missing, batchOf('x'));
    assert.equal(
      a!.error!.message,
      'execution error: exec: "no-such-program-nekton": executable file not found in $PATH: ',
    );
    const badArgs = await processor({ command: { name: 'cat', args_mapping: '"-n"' } });
    const [[b]] = await run(badArgs, batchOf('x'));
    assert.equal(b!.error!.message, 'args mapping result error: expected array value, got string');
  });
});
