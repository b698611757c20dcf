// Patterns from component configs follow RE2's syntax and Go's semantics (`\z`, `(?P<name>)`),
// and one RE2 refuses is a clear error naming its field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metadataFilter } from '../../src/components/fields/metadata.js';
import type { KafkaFranzInputConfig } from '../../src/components/kafka/franz_input_fields.js';
import { topicSelection } from '../../src/components/kafka/franz_topics.js';
import { registry } from '../../src/components/registry.js';
import { buildScanner } from '../../src/components/scanners/build.js';
import type { ByteSource } from '../../src/components/scanners/scanner.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';
import { ConfigError } from '../../src/engine/errors.js';
import { createTestContext } from '../helpers/context.js';

async function* chunks(...parts: string[]): ByteSource {
  for (const p of parts) yield Buffer.from(p);
}

async function scan(scanner: unknown, text: string, name = ''): Promise<string[]> {
  const built = await buildScanner(scanner, createTestContext());
  const out: string[] = [];
  for await (const batch of built(chunks(text), { name })) out.push(...batch.map((m) => m.text()));
  return out;
}

describe('patterns in component configs', () => {
  it('metadata include_patterns', () => {
    const keep = metadataFilter({ include_prefixes: [], include_patterns: ['_key\\z', '^(?P<p>x)-'] })!;
    assert.deepEqual(
      ['kafka_key', 'kafka_keyz', 'x-y', 'y-x'].map((k) => keep(k)),
      [true, false, true, false],
    );
    assert.throws(
      () => metadataFilter({ include_prefixes: [], include_patterns: ['a(b'] }),
      (err: Error) =>
        err instanceof ConfigError &&
        /include_patterns: error parsing regexp: missing closing \)/.test(err.message),
    );
  });

  it('kafka_franz regexp_topics_include / exclude', () => {
    const base = {
      consumer_group: 'g',
      regexp_topics_include: ['^logs-\\d+\\z'],
      regexp_topics_exclude: ['^logs-9'],
    };
    const { include, exclude } = topicSelection(base as unknown as KafkaFranzInputConfig);
    const picked = ['logs-12', 'logs-12z', 'logs-9', 'metrics'].filter(
      (t) => include.some((p) => p.test(t)) && !exclude.some((p) => p.test(t)),
    );
    assert.deepEqual(picked, ['logs-12']);
    assert.throws(
      () =>
        topicSelection({ ...base, regexp_topics_exclude: ['(?<=x)'] } as unknown as KafkaFranzInputConfig),
      /kafka_franz: regexp_topics_exclude: error parsing regexp: invalid named capture/,
    );
  });

  it('the switch scanner re_match_name and the re_match scanner', async () => {
    const cases = {
      switch: [{ re_match_name: '\\.json\\z', scanner: { to_the_end: {} } }, { scanner: { lines: {} } }],
    };
    assert.deepEqual(await scan(cases, 'a\nb\n', 'x.json'), ['a\nb\n']);
    assert.deepEqual(await scan(cases, 'a\nb\n', 'x.jsonz'), ['a', 'b']);
    const records = await scan(
      { re_match: { pattern: '(?m)^(?P<time>\\d\\d:\\d\\d)\\s' } },
      '10:00 a\n more\n10:01 b\n',
    );
    assert.deepEqual(records, ['10:00 a\n more\n', '10:01 b\n']);
    await assert.rejects(
      buildScanner({ re_match: { pattern: 'a(b' } }, createTestContext()),
      (err: Error) =>
        err instanceof ConfigError &&
        /re_match: pattern: error parsing regexp: missing closing \)/.test(err.message),
    );
  });

  it('lint reports a bad pattern in amqp_0_9 nack_reject_patterns on its line', () => {
    const lints = lintServiceConfig(
      parseYaml(
        `input:
  amqp_0_9:
    urls: [ amqp://localhost:5672 ]
    queue: q
    nack_reject_patterns: [ '^ok', 'x{2,1}' ]
output:
  drop: {}
`,
        'c.yaml',
      ),
      { provider: schemaProvider(registry) },
    ).map(formatApiLint);
    assert.deepEqual(lints, [
      '(5,1) field nack_reject_patterns: error parsing regexp: invalid repeat count: `{2,1}`',
    ]);
  });
});
