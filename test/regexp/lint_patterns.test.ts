// A pattern RE2 refuses is a lint error with its place: the line (and column) of a literal in a
// Bloblang mapping, the line of a config field that holds a pattern.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMapping } from '../../src/bloblang/index.js';
import { registry } from '../../src/components/registry.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { Message } from '../../src/message/message.js';

function lintConfigText(yaml: string): string[] {
  const provider = schemaProvider(registry);
  return lintServiceConfig(parseYaml(yaml, 'c.yaml'), { provider }).map(formatApiLint);
}

const messageOf = (v: unknown) => new Message(JSON.stringify(v));

describe('linting regular expressions', () => {
  it('a literal pattern in a mapping is a parse error with line and column', () => {
    assert.throws(
      () => parseMapping('root = this\nroot.b = this.a.re_replace_all("x(?<=y)", "z")'),
      (err: Error & { line?: number; column?: number }) => {
        assert.match(
          err.message,
          /^line 2 char 17: error parsing regexp: invalid named capture: `\(\?<=y\)`/,
        );
        assert.equal(err.line, 2);
        assert.equal(err.column, 17);
        return true;
      },
    );
    // Patterns RE2 accepts but V8 refuses (and the other way round) follow RE2.
    assert.doesNotThrow(() => parseMapping('root = this.a.re_match("\\\\pL\\\\z")'));
    assert.throws(() => parseMapping('root = this.a.re_match("\\\\Z")'), /invalid escape sequence: `\\Z`/);
  });

  it('a pattern computed at run time fails the message, not the parse', () => {
    const mapping = parseMapping('root = this.a.re_match(this.p)');
    assert.throws(
      () => mapping.apply([messageOf({ a: 'x', p: 'a**' })], 0),
      /invalid nested repetition operator/,
    );
  });

  it('config fields that hold patterns are checked on their own line', () => {
    const lints = lintConfigText(`input:
  file:
    paths: [ ./in.log ]
    scanner:
      switch:
        - re_match_name: '\\.json($'
          scanner:
            lines: {}
        - scanner:
            re_match:
              pattern: 'a{1001}'
pipeline:
  processors:
    - mapping: |
        root = this
        root.b = content().string().re_match("a(b")
output:
  http_client:
    url: http://localhost:1/x
    metadata:
      include_patterns: [ 'ok', 'x**' ]
`);
    assert.deepEqual(lints, [
      '(6,1) field re_match_name: error parsing regexp: missing closing ): `\\.json($`',
      '(11,1) field pattern: error parsing regexp: invalid repeat count: `{1001}`',
      '(16,1) field mapping: line 2 char 29: error parsing regexp: missing closing ): `a(b`',
      '(21,1) field include_patterns: error parsing regexp: invalid nested repetition operator: `**`',
    ]);
  });
});
