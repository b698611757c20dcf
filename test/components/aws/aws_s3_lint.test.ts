// What the aws_s3 components refuse at lint (and at build), and the secrets `echo` scrubs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spec as cacheSpec } from '../../../src/components/caches/aws_s3.js';
import { registry } from '../../../src/components/registry.js';
import { bloblangChecker } from '../../../src/config/bloblang_check.js';
import { formatApiLint } from '../../../src/config/lint.js';
import { lintStreamConfig } from '../../../src/config/lint_config.js';
import { schemaProvider } from '../../../src/config/schema.js';
import { scrubServiceConfig } from '../../../src/config/scrub.js';
import { parseYaml, yamlToValue } from '../../../src/config/yaml_document.js';
import { createTestContext } from '../../helpers/context.js';
import { configOf } from '../reference.js';

const lint = (text: string) =>
  lintStreamConfig(parseYaml(text), { provider: schemaProvider(registry), bloblang: bloblangChecker }).map(
    formatApiLint,
  );

describe('aws_s3 lint and secrets', () => {
  const output = '  drop: {}\n';
  it('refuses the SQS mode, assumed roles, EC2 roles, a bad endpoint and a missing bucket, naming the field', () => {
    assert.deepEqual(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    sqs:\n      url: https://sqs.us-east-1.amazonaws.com/1/q\noutput:\n${output}`,
      ),
      [
        '(3,1) sqs.url: the SQS notification mode is not supported by nekton (no local SQS to test it against); leave sqs.url empty to walk the bucket',
      ],
    );
    assert.match(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    credentials:\n      role: arn:aws:iam::1:role/r\noutput:\n${output}`,
      ).join(),
      /credentials\.role: assuming a role \(STS\) is not supported/,
    );
    assert.match(
      lint(
        `input:\n  generate:\n    mapping: root = 1\noutput:\n  aws_s3:\n    bucket: b\n    credentials:\n      from_ec2_role: true\n`,
      ).join(),
      /credentials\.from_ec2_role: EC2 instance roles are not supported/,
    );
    assert.match(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    tcp:\n      tcp_user_timeout: 5s\noutput:\n${output}`,
      ).join(),
      /tcp\.tcp_user_timeout: Node\.js cannot set a TCP user timeout/,
    );
    assert.match(
      lint(`input:\n  aws_s3:\n    bucket: b\n    endpoint: 127.0.0.1:9000\noutput:\n${output}`).join(),
      /endpoint: '127\.0\.0\.1:9000' is not an http:\/\/ or https:\/\/ URL/,
    );
    assert.deepEqual(lint(`input:\n  aws_s3:\n    prefix: x/\noutput:\n${output}`), [
      '(3,1) bucket is required (the bucket to walk)',
    ]);
    assert.deepEqual(
      lint(
        `input:\n  aws_s3:\n    bucket: b\n    endpoint: http://127.0.0.1:9000\n    credentials:\n      id: a\n      secret: b\noutput:\n${output}`,
      ),
      [],
      'a plain config lints clean',
    );
  });

  it('a build of a refused config fails the same way (dynamic members, direct builds)', async () => {
    const ctx = createTestContext({ path: 'root.cache_resources.0' });
    await assert.rejects(
      ctx.buildCache({
        type: 'aws_s3',
        label: 'c',
        config: configOf(cacheSpec, { bucket: 'b', credentials: { role: 'arn:aws:iam::1:role/r' } }),
        processors: [],
        path: 'root.cache_resources.0',
        raw: {},
      }),
      /credentials\.role: assuming a role/,
    );
  });

  it('echo scrubs the credentials secret and session token', () => {
    const raw = yamlToValue(
      parseYaml(
        `input:\n  aws_s3:\n    bucket: b\n    credentials:\n      id: AKIAEXAMPLE\n      secret: s3cr3t-value-99\n      token: sess-token-77\noutput:\n  drop: {}\n`,
      ),
    );
    const shown = JSON.stringify(scrubServiceConfig(raw, schemaProvider(registry)));
    assert.ok(!shown.includes('s3cr3t-value-99'), shown);
    assert.ok(!shown.includes('sess-token-77'), shown);
    assert.match(shown, /AKIAEXAMPLE/);
  });
});
