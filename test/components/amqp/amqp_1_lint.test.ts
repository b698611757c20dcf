// `nekton lint` on amqp_1 configs: the reference's rules (a broker named, credit of at least 1, a
// destination for the output) and what nekton cannot run (azure_renew_lock), each at its line.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { parseYaml } from '../../../src/config/yaml_document.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );
const withInput = (input: string) => `input:\n  amqp_1:\n${input}output:\n  drop: {}\n`;
const withOutput = (output: string) =>
  `input:\n  generate:\n    mapping: root = 1\noutput:\n  amqp_1:\n${output}`;

describe('lint of the amqp_1 components', () => {
  it('accepts a complete input and output, and the deprecated url in place of urls', () => {
    assert.deepEqual(
      lint(withInput('    urls: [ amqp://localhost ]\n    source_address: /amq/queue/q\n')),
      [],
    );
    assert.deepEqual(lint(withInput('    url: amqp://localhost\n    source_address: /amq/queue/q\n')), []);
    assert.deepEqual(lint(withOutput('    urls: [ amqp://localhost ]\n    target_address: /queue/q\n')), []);
  });

  it('requires a broker', () => {
    assert.deepEqual(lint(withInput("    urls: [ ' , ' ]\n    source_address: q\n")), [
      "(3,1) field 'urls' must be set",
    ]);
    assert.deepEqual(lint(withOutput('    target_address: q\n')), ["(6,1) field 'urls' must be set"]);
  });

  it('requires a source address on the input', () => {
    assert.deepEqual(lint(withInput('    urls: [ amqp://localhost ]\n')), [
      '(3,1) field source_address is required',
    ]);
  });

  it('refuses a credit below 1 and the unsupported azure_renew_lock', () => {
    assert.deepEqual(
      lint(
        withInput(
          '    urls: [ amqp://localhost ]\n    source_address: q\n    credit: 0\n    azure_renew_lock: true\n',
        ),
      ),
      ['(3,1) credit must be at least 1', '(3,1) azure_renew_lock is not supported by nekton'],
    );
  });

  it('requires a destination on the output: target_address or message_properties_to', () => {
    assert.deepEqual(lint(withOutput('    urls: [ amqp://localhost ]\n')), [
      "(6,1) when 'target_address' is empty, 'message_properties_to' must be set to specify per-message destinations",
    ]);
    assert.deepEqual(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
      lint(withOutput("    urls: [ amqp://localhost ]\n    message_properties_to: '${! @dest }'\n")),
      [],
    );
  });

  it('names the field of a bad value: a SASL mechanism, a mapping, an interpolation', () => {
    const lints = lint(
      withOutput(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation, not a JS template
        "    urls: [ amqp://localhost ]\n    target_address: q\n    sasl:\n      mechanism: kerberos\n    application_properties_map: 'root = '\n    message_properties_subject: '${! meta( }'\n    content_type: text\n",
      ),
    );
    assert.deepEqual(lints, [
      '(9,1) value kerberos is not a valid option for this field',
      '(10,1) field application_properties_map: line 1 char 8: required: expected query',
      '(11,1) field message_properties_subject: line 1 char 11: required: expected function argument',
      '(12,1) value text is not a valid option for this field',
    ]);
  });
});
