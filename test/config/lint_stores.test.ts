// Lint of the Redis, SQL and HTTP client components since they are declared with typed fields:
// bad durations, interpolations and mappings, and the checks that moved out of their
// constructors, are reported by `nekton lint` at the value's (or the component's) line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintServiceConfig, lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

/** A config whose input is `input` and output `output` (YAML blocks indented by two). */
const stream = (input: string, output: string) => `input:\n${input}output:\n${output}`;
const generate = '  generate:\n    mapping: root = 1\n';
const drop = '  drop: {}\n';

/** The one lint of a config, which must be the only one. */
function onlyLint(text: string): string {
  const lints = lint(text);
  assert.equal(lints.length, 1, `expected one lint, got ${JSON.stringify(lints)}`);
  return lints[0] as string;
}

describe('lint of redis, sql and http client fields', () => {
  describe('durations', () => {
    it('redis_list input timeout', () => {
      const text = stream(
        '  redis_list:\n    url: redis://localhost:6379\n    key: k\n    timeout: 5 secs\n',
        drop,
      );
      assert.match(onlyLint(text), /^\(5,1\) field timeout: invalid duration "5 secs"/);
    });

    it('redis_streams input commit_period', () => {
      const text = stream(
        '  redis_streams:\n    url: redis://localhost:6379\n    streams: [ s ]\n    consumer_group: g\n    commit_period: often\n',
        drop,
      );
      assert.match(onlyLint(text), /^\(6,1\) field commit_period: invalid duration "often"/);
    });

    it('redis cache default_ttl and redis rate limit interval', () => {
      const text = `${stream(generate, drop)}cache_resources:
  - label: c
    redis:
      url: redis://localhost:6379
      default_ttl: 1 hour
rate_limit_resources:
  - label: r
    redis:
      url: redis://localhost:6379
      key: k
      interval: 1sec
`;
      const lints = lintServiceConfig(parseYaml(text), {
        provider: schemaProvider(registry),
        bloblang: bloblangChecker,
        withStreamSections: true,
      }).map(formatApiLint);
      assert.equal(lints.length, 2, JSON.stringify(lints));
      assert.match(lints[0] ?? '', /^\(10,1\) field default_ttl: invalid duration "1 hour"/);
      assert.match(lints[1] ?? '', /^\(16,1\) field interval: invalid duration "1sec"/);
    });

    it('redis processor retry_period', () => {
      const text = `${stream(generate, drop)}pipeline:
  processors:
    - redis:
        url: redis://localhost:6379
        command: get
        args_mapping: root = [ "k" ]
        retry_period: 1 minute
`;
      assert.match(onlyLint(text), /^\(12,1\) field retry_period: invalid duration "1 minute"/);
    });

    it('sql conn_max_idle_time and conn_max_life_time', () => {
      const text = stream(
        generate,
        '  sql_insert:\n    driver: postgres\n    dsn: postgres://localhost/test\n    table: t\n    columns: [ a ]\n    args_mapping: root = [ this ]\n    conn_max_idle_time: 3 minutes\n    conn_max_life_time: 1h\n',
      );
      assert.match(onlyLint(text), /^\(11,1\) field conn_max_idle_time: invalid duration "3 minutes"/);
    });

    it('http_client timeout, retry_period and max_retry_backoff', () => {
      const text = stream(
        generate,
        '  http_client:\n    url: http://localhost:4195/post\n    timeout: soon\n    retry_period: 1 sec\n    max_retry_backoff: 300s\n',
      );
      const lints = lint(text);
      assert.equal(lints.length, 2, JSON.stringify(lints));
      assert.match(lints[0] ?? '', /^\(7,1\) field timeout: invalid duration "soon"/);
      assert.match(lints[1] ?? '', /^\(8,1\) field retry_period: invalid duration "1 sec"/);
    });

    it('http processor timeout', () => {
      const text = `${stream(generate, drop)}pipeline:
  processors:
    - http:
        url: http://localhost:4195/post
        timeout: 5 s
`;
      assert.match(onlyLint(text), /^\(10,1\) field timeout: invalid duration "5 s"/);
    });
  });

  describe('interpolations', () => {
    it('redis_list output key', () => {
      const text = stream(
        generate,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation in YAML
        "  redis_list:\n    url: redis://localhost:6379\n    key: '${! meta( }'\n",
      );
      assert.match(onlyLint(text), /^\(7,1\) field key: /);
    });

    it('redis_hash output fields entry', () => {
      const text = stream(
        generate,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation in YAML
        "  redis_hash:\n    url: redis://localhost:6379\n    key: k\n    fields:\n      a: '${! this. }'\n",
      );
      assert.match(onlyLint(text), /^\(9,1\) field fields: /);
    });

    it('http_client url and headers', () => {
      const text = stream(
        generate,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation in YAML
        "  http_client:\n    url: 'http://x/${! meta( }'\n    headers:\n      X-Id: '${! ( }'\n",
      );
      const lints = lint(text);
      assert.equal(lints.length, 2, JSON.stringify(lints));
      assert.match(lints[0] ?? '', /^\(6,1\) field url: /);
      assert.match(lints[1] ?? '', /^\(8,1\) field headers: /);
    });
  });

  describe('mappings', () => {
    it('sql_insert args_mapping', () => {
      const text = stream(
        generate,
        "  sql_insert:\n    driver: mysql\n    dsn: root@tcp(localhost:3306)/test\n    table: t\n    columns: [ a ]\n    args_mapping: 'root = ['\n",
      );
      assert.match(onlyLint(text), /^\(10,1\) field args_mapping: /);
    });

    it('sql_raw output when of a queries item', () => {
      const text = stream(
        generate,
        "  sql_raw:\n    driver: postgres\n    dsn: postgres://localhost/test\n    queries:\n      - query: DELETE FROM t\n        when: 'this.kind =='\n",
      );
      assert.match(onlyLint(text), /^\(10,1\) field when: /);
    });

    it('redis processor args_mapping', () => {
      const text = `${stream(generate, drop)}pipeline:
  processors:
    - redis:
        url: redis://localhost:6379
        command: get
        args_mapping: 'root = [ this.'
`;
      assert.match(onlyLint(text), /^\(11,1\) field args_mapping: /);
    });
  });

  describe('checks moved out of constructors', () => {
    it('redis_pubsub input without channels', () => {
      const text = stream('  redis_pubsub:\n    url: redis://localhost:6379\n    channels: []\n', drop);
      assert.equal(onlyLint(text), '(3,1) channels must name at least one channel');
    });

    it('redis_streams input without streams', () => {
      const text = stream(
        '  redis_streams:\n    url: redis://localhost:6379\n    streams: []\n    consumer_group: g\n',
        drop,
      );
      assert.equal(onlyLint(text), '(3,1) streams must name at least one stream');
    });

    it('redis_streams input without a consumer group', () => {
      const text = stream('  redis_streams:\n    url: redis://localhost:6379\n    streams: [ s ]\n', drop);
      assert.equal(onlyLint(text), '(3,1) consumer_group must be set');
    });

    it('redis processor command without args_mapping', () => {
      const text = `${stream(generate, drop)}pipeline:
  processors:
    - redis:
        url: redis://localhost:6379
        command: get
`;
      assert.equal(onlyLint(text), '(9,1) args_mapping is required with command');
    });
  });

  describe('redis kinds', () => {
    it('failover without master, at the master line when written, else at the component', () => {
      const written = stream(
        "  redis_list:\n    url: redis://s1:26379\n    kind: failover\n    master: ''\n    key: k\n",
        drop,
      );
      assert.equal(
        onlyLint(written),
        '(5,1) field master: kind failover needs the name of the master the sentinels monitor',
      );
      const absent = stream(
        '  redis_list:\n    url: redis://s1:26379\n    kind: failover\n    key: k\n',
        drop,
      );
      assert.equal(
        onlyLint(absent),
        '(3,1) field master: kind failover needs the name of the master the sentinels monitor',
      );
      const ok = stream(
        '  redis_list:\n    url: redis://s1:26379,redis://s2:26379\n    kind: failover\n    master: mymaster\n    key: k\n',
        drop,
      );
      assert.deepEqual(lint(ok), []);
    });

    it('redis_streams on a cluster: streams of different slots are refused, one hash tag lints', () => {
      const streams = (list: string) =>
        stream(
          `  redis_streams:\n    url: redis://n1:7000\n    kind: cluster\n    streams: ${list}\n    consumer_group: g\n`,
          drop,
        );
      assert.match(
        onlyLint(streams('[ orders, payments ]')),
        /^\(5,1\) field streams: with kind cluster every stream must hash to one slot.*'orders' and 'payments'/,
      );
      assert.deepEqual(lint(streams("[ '{shop}.orders', '{shop}.payments' ]")), []);
      // One stream, or a simple client, has no slot rule.
      assert.deepEqual(lint(streams('[ orders ]')), []);
    });
  });

  it('the same components lint clean when their values are right', () => {
    const text = stream(
      '  redis_streams:\n    url: redis://localhost:6379\n    streams: [ s ]\n    consumer_group: g\n    timeout: 500ms\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation in YAML
      "  http_client:\n    url: 'http://x/${! @id }'\n    timeout: 2s\n    headers:\n      X-Id: '${! @id }'\n",
    );
    assert.deepEqual(lint(text), []);
  });
});
