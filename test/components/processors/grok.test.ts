// The grok processor: default patterns, definitions, pattern files, type hints, nested fields,
// the named_captures_only / remove_empty_values switches, and failures.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PatternSet, parsePatternFile } from '../../../src/components/processors/grok_compile.js';
import { DEFAULT_GROK_PATTERNS } from '../../../src/components/processors/grok_patterns.js';
import { batchOf, lintComponent, processor, run, texts } from '../bloblang_components/build.js';

const VPC = {
  expressions: ['%{VPCFLOWLOG}'],
  pattern_definitions: {
    VPCFLOWLOG:
      '%{NUMBER:version:int} %{NUMBER:accountid} %{NOTSPACE:interfaceid} %{NOTSPACE:srcaddr} %{NOTSPACE:dstaddr} %{NOTSPACE:srcport:int} %{NOTSPACE:dstport:int} %{NOTSPACE:protocol:int} %{NOTSPACE:packets:int} %{NOTSPACE:bytes:int} %{NUMBER:start:int} %{NUMBER:end:int} %{NOTSPACE:action} %{NOTSPACE:logstatus}',
  },
};

describe('grok processor', () => {
  it('parses the reference VPC flow log example with type hints', async () => {
    const p = await processor({ grok: VPC });
    const out = await run(
      p,
      batchOf(
        '2 123456789010 eni-1235b8ca123456789 172.31.16.139 172.31.16.21 20641 22 6 20 4249 1418530010 1418530070 ACCEPT OK',
      ),
    );
    assert.deepEqual(texts(out), [
      [
        '{"accountid":"123456789010","action":"ACCEPT","bytes":4249,"dstaddr":"172.31.16.21","dstport":22,"end":1418530070,"interfaceid":"eni-1235b8ca123456789","logstatus":"OK","packets":20,"protocol":6,"srcaddr":"172.31.16.139","srcport":20641,"start":1418530010,"version":2}',
      ],
    ]);
  });

  it('parses a combined Apache log line with the default patterns', async () => {
    const p = await processor({ grok: { expressions: ['%{COMBINEDAPACHELOG}'] } });
    const [[out]] = await run(
      p,
      batchOf(
        '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 "http://www.example.com/start.html" "Mozilla/4.08"',
      ),
    );
    const v = out!.structured() as Record<string, unknown>;
    assert.equal(out!.error, null);
    assert.equal(v.clientip, '127.0.0.1');
    assert.equal(v.auth, 'frank');
    assert.equal(v.timestamp, '10/Oct/2000:13:55:36 -0700');
    assert.equal(v.verb, 'GET');
    assert.equal(v.request, '/apache_pb.gif');
    assert.equal(v.response, '200');
    assert.equal(v.referrer, '"http://www.example.com/start.html"');
    assert.equal(v.agent, '"Mozilla/4.08"');
  });

  it('tries expressions in order, makes nested objects of dotted names and floats of :float', async () => {
    const p = await processor({
      grok: { expressions: ['%{INT:only.int:int}$', '%{WORD:user.name} took %{NUMBER:user.secs:float}s'] },
    });
    assert.deepEqual(texts(await run(p, batchOf('ann took 1.5s', '42'))), [
      ['{"user":{"name":"ann","secs":1.5}}', '{"only":{"int":42}}'],
    ]);
  });

  it('allows one field name twice, as Go does: the last non-empty capture wins', async () => {
    const p = await processor({
      grok: { expressions: ['%{WORD:w} %{WORD:w}|%{INT:w}-%{SYSLOGPROG} %{SYSLOGPROG}'] },
    });
    assert.deepEqual(texts(await run(p, batchOf('one two', '5-a[1] b'))), [
      ['{"w":"two"}', '{"pid":"1","program":"b","w":"5"}'],
    ]);
  });

  it('keeps unnamed patterns and empty values when told to', async () => {
    const named = await processor({ grok: { expressions: ['%{WORD:a}-%{WORD}-(?P<b>x?)'] } });
    assert.deepEqual(texts(await run(named, batchOf('one-two-'))), [['{"a":"one"}']]);
    const all = await processor({
      grok: {
        expressions: ['%{WORD:a}-%{WORD}-(?P<b>x?)'],
        named_captures_only: false,
        remove_empty_values: false,
      },
    });
    assert.deepEqual(texts(await run(all, batchOf('one-two-'))), [['{"WORD":"two","a":"one","b":""}']]);
  });

  it('reads pattern files from pattern_paths, a directory or a glob', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nekton-grok-'));
    try {
      await writeFile(
        join(dir, 'mine.grok'),
        '# my patterns\nGREETING (?:hello|hi)\n\nSHOUT %{GREETING:greeting}!\n',
      );
      for (const path of [dir, join(dir, '*.grok')]) {
        const p = await processor({ grok: { expressions: ['%{SHOUT} %{WORD:who}'], pattern_paths: [path] } });
        assert.deepEqual(texts(await run(p, batchOf('hi! bob'))), [['{"greeting":"hi","who":"bob"}']]);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('flags a message nothing matches, or whose typed value does not convert, and leaves it unchanged', async () => {
    const p = await processor({ grok: { expressions: ['^%{WORD:w:int}$'] } });
    const [out] = await run(p, batchOf('abc', '!!!'));
    for (const [i, text] of ['abc', '!!!'].entries()) {
      assert.equal(out![i]!.text(), text);
      assert.equal(out![i]!.error!.message, 'no pattern matches found');
    }
  });

  it('compiles every default pattern on the linear-time engine', () => {
    const names = DEFAULT_GROK_PATTERNS.split('\n')
      .filter((l) => l !== '')
      .map((l) => l.slice(0, l.indexOf(' ')));
    assert.equal(names.length, 76);
    const set = new PatternSet(true);
    const definitions = new Map<string, string>();
    parsePatternFile(DEFAULT_GROK_PATTERNS, definitions);
    set.addAll(definitions);
    for (const name of names) assert.doesNotThrow(() => set.compile(`%{${name}:v}`, true), name);
  });

  it('does not lint or build an expression with an unknown pattern or a bad regular expression', async () => {
    assert.deepEqual(lintComponent('processor', 'grok:\n  expressions: [ "%{NOPE:x}" ]\n'), [
      "failed to compile Grok pattern '%{NOPE:x}': no pattern found for %{NOPE}",
    ]);
    const bad = lintComponent('processor', 'grok:\n  expressions: [ "%{WORD:x}(" ]\n');
    assert.equal(bad.length, 1);
    assert.match(
      bad[0]!,
      /^failed to compile Grok pattern '%\{WORD:x\}\(': error parsing regexp: missing closing \)/,
    );
    await assert.rejects(
      processor({ grok: { expressions: ['%{X}'], pattern_definitions: { X: '%{Y}' } } }),
      /failed to create grok compiler: no pattern found for %\{Y\}/,
    );
    await assert.rejects(
      processor({ grok: { expressions: ['%{WORD}'], pattern_paths: ['/no/such/nekton/file'] } }),
      /failed to parse patterns from path '\/no\/such\/nekton\/file'/,
    );
  });
});
