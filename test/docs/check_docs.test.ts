// scripts/check-docs.mjs itself: that it finds the marked examples, and that a wrong output, a
// failing command or an unmarked block fails the check, naming the line.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
// @ts-expect-error: a plain ES module of scripts/, without type declarations
import { findBlocks, matchesExpected, parseConsole } from '../../scripts/doc_examples.mjs';
import { tempDir } from '../helpers/cli.js';
import { runCheckDocs } from './run_check_docs.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function markdown(text: string): string {
  const dir = tempDir('nekton-docs-test-');
  dirs.push(dir);
  const file = join(dir, 'doc.md');
  writeFileSync(file, text);
  return file;
}

describe('check-docs', () => {
  it('reads console blocks: commands, heredocs, continuations and their expected output', () => {
    const [block] = findBlocks(
      "<!-- doc-test -->\n```console\n$ cat > a.yaml <<'EOF'\nx: 1\n$ not a command\nEOF\n$ echo a \\\n  b\na b\n```\n",
    );
    assert.deepEqual(block.marker, { options: '' });
    const steps = parseConsole(block.body, 3);
    assert.deepEqual(
      steps.map((s: { command: string; expected: string[] }) => [s.command, s.expected]),
      [
        ["cat > a.yaml <<'EOF'\nx: 1\n$ not a command\nEOF", []],
        ['echo a \\\n  b', ['a b']],
      ],
    );
  });

  it('matches output against `...` wildcards, within a line and for whole lines', () => {
    assert.ok(matchesExpected('{"a":1,"b":2}\n', ['{"a":...,"b":2}']));
    assert.ok(matchesExpected('x\ny\nz\n', ['x', '...']));
    assert.ok(matchesExpected('x\n', ['x', '...']));
    assert.ok(!matchesExpected('x\ny\n', ['x']));
    assert.ok(!matchesExpected('pong', ['ping']));
    assert.ok(!matchesExpected('a.b', ['a*b']), 'only ... is special');
  });

  it('fails on a wrong output, a failing command and an unmarked shell block, naming each line', async () => {
    const file = markdown(
      [
        '<!-- doc-test -->',
        '```console',
        '$ X=kept',
        '$ echo "$X on 4195"',
        'kept on 4195',
        '$ echo pong',
        'ping',
        '$ false',
        '```',
        '',
        '```sh',
        'echo never run',
        '```',
        '',
        '<!-- doc-test: skip -->',
        '```sh',
        'echo a skip without a reason',
        '```',
        '',
      ].join('\n'),
    );
    const { code, output } = await runCheckDocs([file]);
    assert.equal(code, 1, output);
    assert.match(output, /4 problem\(s\), 4 command\(s\) run/);
    assert.doesNotMatch(output, /on 4195/, 'a shell variable carries over and the port is a stand-in');
    assert.match(output, /doc\.md:6: \$ echo pong\n {2}expected:\n {4}ping\n {2}got \(exit 0\):\n {4}pong/);
    assert.match(output, /doc\.md:8: \$ false\n {2}expected:\n {4}exit status 0/);
    assert.match(output, /doc\.md:11: a sh block that is not checked/);
    assert.match(output, /doc\.md:16: a doc-test skip needs a reason/);
  });

  it('writes a block marked as a file for the commands after it, and passes when all is as written', async () => {
    const file = markdown(
      [
        '<!-- doc-test: file conf.yaml -->',
        '```yaml',
        'http: { address: 127.0.0.1:4195 }',
        '```',
        '',
        '<!-- doc-test -->',
        '```console',
        '$ cat conf.yaml',
        'http: { address: 127.0.0.1:4195 }',
        '$ test -x bin/nekton',
        '```',
        '',
      ].join('\n'),
    );
    const { code, output } = await runCheckDocs([file]);
    assert.equal(code, 0, output);
    assert.match(output, /2 command\(s\) run, every one as documented/);
  });
});
