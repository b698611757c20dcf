// `nekton lint` on the messaging connectors (amqp_0_9, nats*, mqtt, kafka*): mistakes that used to
// surface only when the stream started (a bad duration, interpolation or mapping, a missing broker)
// are now reported by lint at the value's line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../src/components/registry.js';
import { bloblangChecker } from '../../src/config/bloblang_check.js';
import { formatApiLint } from '../../src/config/lint.js';
import { lintStreamConfig } from '../../src/config/lint_config.js';
import { schemaProvider } from '../../src/config/schema.js';
import { parseYaml } from '../../src/config/yaml_document.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

/** A config whose input is `generate` and whose output is the given YAML (indented under `output:`). */
const withOutput = (output: string) => `input:\n  generate:\n    mapping: root = 1\noutput:\n${output}`;
/** A config whose input is the given YAML and whose output is `drop`. */
const withInput = (input: string) => `input:\n${input}output:\n  drop: {}\n`;

describe('lint of the amqp_0_9 components', () => {
  it('reports an output timeout that is not a duration at its line', () => {
    const lints = lint(
      withOutput('  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: x\n    timeout: 10 secs\n'),
    );
    assert.equal(lints.length, 1);
    assert.match(lints[0] ?? '', /^\(8,1\) field timeout: invalid duration "10 secs"/);
  });

  it('reports a broken interpolation in the exchange and in a message property at their lines', () => {
    const lints = lint(
      withOutput(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        "  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: 'x-${! meta( }'\n    priority: '${! 1 + }'\n",
      ),
    );
    assert.equal(lints.length, 2);
    assert.match(lints[0] ?? '', /^\(7,1\) field exchange: /);
    assert.match(lints[1] ?? '', /^\(8,1\) field priority: /);
  });

  it('reports an input whose urls name no broker (was a start-up error)', () => {
    const lints = lint(withInput("  amqp_0_9:\n    urls: [ ' , ' ]\n    queue: q\n"));
    assert.deepEqual(lints, ['(3,1) amqp_0_9: urls must name at least one broker']);
  });

  it('reports an output whose urls name no broker (was a start-up error)', () => {
    const lints = lint(withOutput('  amqp_0_9:\n    urls: []\n    exchange: x\n'));
    assert.deepEqual(lints, ['(6,1) amqp_0_9: urls must name at least one broker']);
  });

  it('accepts a valid output with an empty timeout and a dynamic routing key', () => {
    assert.deepEqual(
      lint(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Bloblang interpolation
        withOutput("  amqp_0_9:\n    urls: [ amqp://localhost ]\n    exchange: x\n    key: '${! @kind }'\n"),
      ),
      [],
    );
  });
});
