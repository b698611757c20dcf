// Rendering a template's mapping, its `tests` (run by `template lint`), and `metrics_mapping`
// over the metrics of the inner components.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import type { Counter, MetricsScope } from '../../src/engine/context.js';
import { compileTemplate, renderTemplate } from '../../src/templates/compiled_template.js';
import { readTemplateText } from '../../src/templates/template_file.js';
import { MetricsMapping } from '../../src/templates/template_metrics.js';
import { runTemplateTests } from '../../src/templates/template_tests.js';

const compile = (text: string) => compileTemplate(readTemplateText(text, 't.yaml').config);

describe('rendering a template', () => {
  it('runs the mapping on the fields, with the label as meta("label")', () => {
    const template = compile(
      'name: x\ntype: cache\nmapping: |\n  root.memory.default_ttl = this.ttl\n  root.label_seen = @label\n',
    );
    assert.deepEqual(renderTemplate(template, { ttl: '1m' }, 'mine'), {
      memory: { default_ttl: '1m' },
      label_seen: 'mine',
    });
  });

  it('says why a mapping gave no config', () => {
    const failing = compile('name: x\ntype: cache\nmapping: root = throw("no way")\n');
    assert.throws(
      () => renderTemplate(failing, {}, ''),
      /^Error: mapping failed for template component: .*no way/,
    );
    const deleting = compile('name: x\ntype: cache\nmapping: root = deleted()\n');
    assert.throws(() => renderTemplate(deleting, {}, ''), /deleted the config/);
  });
});

describe('template tests', () => {
  const template = (tests: string) =>
    compile(
      `name: x\ntype: cache\nfields:\n  - {name: ttl, type: string, default: 5m}\n  - {name: extra, type: unknown, default: {}}\nmapping: |\n  root.memory = this.extra.merge({"default_ttl": this.ttl})\n${tests}`,
    );

  it('pass when the result lints and matches `expected`, with the defaults filled', () => {
    const passing = template(
      'tests:\n  - name: ok\n    config: {}\n    expected: {memory: {default_ttl: 5m}}\n',
    );
    assert.deepEqual(runTemplateTests(passing, registry), []);
  });

  it('fail at the test line with the differences, and with lints of the result', () => {
    const failing = template(
      'tests:\n  - name: wrong ttl\n    config: {ttl: 1h}\n    expected: {memory: {default_ttl: 5m}}\n  - name: bad field\n    config: {extra: {colour: red}}\n',
    );
    assert.deepEqual(runTemplateTests(failing, registry), [
      {
        line: 9,
        column: 1,
        message:
          'test \'wrong ttl\': mismatch between expected and actual resulting config:\n  memory.default_ttl: expected "5m", got "1h"',
      },
      {
        line: 12,
        column: 1,
        message: "test 'bad field': lint error in resulting config: field colour not recognised",
      },
    ]);
  });

  it('fail when the config does not fit the fields', () => {
    const typed = compile(
      'name: x\ntype: cache\nfields:\n  - {name: n, type: int}\nmapping: root.memory = {}\ntests:\n  - name: t\n    config: {n: []}\n',
    );
    assert.deepEqual(
      runTemplateTests(typed, registry).map((l) => l.message),
      ["test 't': field n: expected int value, got array"],
    );
  });
});

/** Records the names and labels the inner components' metrics were registered under. */
function recordingScope(seen: string[]): MetricsScope {
  const counter: Counter = { inc() {} };
  const scope: MetricsScope = {
    counter: (name, labels) => {
      seen.push(`${name}${labels && Object.keys(labels).length > 0 ? JSON.stringify(labels) : ''}`);
      return counter;
    },
    timer: () => ({ observeNs() {}, observeNsTimes() {} }),
    gauge: () => ({ set() {} }),
    child: () => scope,
  };
  return scope;
}

describe('metrics_mapping', () => {
  it('renames, drops and labels metrics; $label is the templated component label', () => {
    const mapping = new MetricsMapping(
      [
        'root = if this == "input_connection_lost" { deleted() } else { this.replace_all("input", "source") }',
        'meta owner = $label',
      ].join('\n'),
    );
    const seen: string[] = [];
    const scope = mapping.scope(recordingScope(seen), 'gen');
    scope.counter('input_received');
    scope.counter('input_connection_lost');
    scope.child('x', 'root.input.x').counter('processor_sent', { kind: 'a' });
    assert.deepEqual(seen, ['source_received{"owner":"gen"}', 'processor_sent{"kind":"a","owner":"gen"}']);
  });

  it('leaves a metric as it was when the mapping fails on it', () => {
    const seen: string[] = [];
    new MetricsMapping('root = this.number()').scope(recordingScope(seen), '').counter('input_received');
    assert.deepEqual(seen, ['input_received']);
  });
});
