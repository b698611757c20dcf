// The CLI bundle escapes non-ASCII characters (bin/nekton reads it as latin1), and inside a
// String.raw template an escape stays as the six characters `\u00e4`: a grok pattern with `ä`
// compiled from source but failed from the CLI. So String.raw templates in src/ stay ASCII.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each String.raw template's text with the line it starts on. */
function rawTemplates(text: string): { line: number; body: string }[] {
  const out: { line: number; body: string }[] = [];
  for (let at = text.indexOf('String.raw`'); at >= 0; at = text.indexOf('String.raw`', at + 1)) {
    const start = at + 'String.raw`'.length;
    const end = text.indexOf('`', start);
    if (end < 0) break;
    out.push({ line: text.slice(0, at).split('\n').length, body: text.slice(start, end) });
  }
  return out;
}

describe('String.raw templates in src/', () => {
  it('hold only ASCII characters', () => {
    const found: string[] = [];
    for (const path of files(SRC)) {
      for (const { line, body } of rawTemplates(readFileSync(path, 'utf8'))) {
        const bad = /[^\x00-\x7f]/.exec(body);
        if (bad) found.push(`${relative(SRC, path)}:${line} has ${JSON.stringify(bad[0])}`);
      }
    }
    assert.deepEqual(found, []);
  });

  it('finds a non-ASCII character in a raw template', () => {
    assert.deepEqual(
      rawTemplates('const a = String.raw`M(?:a|ä)?r`;').map((t) => t.body),
      ['M(?:a|ä)?r'],
    );
  });
});
