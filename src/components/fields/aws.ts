// The AWS session fields every aws_* component shares (`region`, `endpoint`, `tcp`,
// `credentials`), exactly as the reference declares them, and the lint of what nekton cannot run.
import { type ConfigOf, field, type RawConfigOf } from '../../config/spec.js';

const a = { advanced: true } as const;

function tcpField() {
  return field.object(
    'tcp',
    'TCP socket options of the HTTP connections to AWS.',
    [
      field.duration('connect_timeout', 'How long a connection attempt may take (0s: no limit).', {
        default: '0s',
        ...a,
      }),
      field.object(
        'keep_alive',
        'TCP keep-alive probes: `idle` is the idle time before the first probe; Node.js leaves `interval` and `count` to the operating system.',
        [
          field.duration('idle', 'Idle time before the first probe.', { default: '15s', ...a }),
          field.duration('interval', 'Time between probes (the operating system decides in nekton).', {
            default: '15s',
            ...a,
          }),
          field.int(
            'count',
            'Unanswered probes before the connection is dropped (the operating system decides in nekton).',
            {
              default: 9,
              ...a,
            },
          ),
        ],
        { optional: true, ...a },
      ),
      field.duration(
        'tcp_user_timeout',
        'How long sent data may stay unacknowledged; Node.js cannot set it, so only `0s` (off) is accepted.',
        { default: '0s', ...a },
      ),
    ],
    { optional: true, ...a },
  );
}

function credentialsField() {
  return field.object(
    'credentials',
    'Optional manual configuration of AWS credentials; without it the default chain is used (environment variables, `~/.aws/credentials`).',
    [
      field.string('profile', 'A profile from `~/.aws/credentials` to use.', { optional: true, ...a }),
      field.string('id', 'The ID of credentials to use.', { optional: true, ...a }),
      field.secret('secret', 'The secret for the credentials being used.', { optional: true, ...a }),
      field.string(
        'token',
        'The token for the credentials being used, required when using short term credentials.',
        { optional: true, ...a },
      ),
      field.bool(
        'from_ec2_role',
        'Use the credentials of a host EC2 machine assuming an IAM role associated with the instance (not supported by nekton: lint refuses it).',
        { optional: true, ...a },
      ),
      field.string('role', 'A role ARN to assume (not supported by nekton: lint refuses it).', {
        optional: true,
        ...a,
      }),
      field.string('role_external_id', 'An external ID to provide when assuming a role.', {
        optional: true,
        ...a,
      }),
    ],
    { optional: true, ...a },
  );
}

/** `region`, `endpoint`, `tcp`, `credentials`, in the reference's order. */
export function awsSessionFields() {
  return [
    field.string('region', 'The AWS region to target.', { optional: true, ...a, examples: ['us-east-1'] }),
    field.string('endpoint', 'Allows you to specify a custom endpoint for the AWS API.', {
      optional: true,
      ...a,
      examples: ['http://127.0.0.1:4566'],
    }),
    tcpField(),
    credentialsField(),
  ] as const;
}

export type AwsSessionConfig = ConfigOf<ReturnType<typeof awsSessionFields>>;
export type RawAwsSessionConfig = RawConfigOf<ReturnType<typeof awsSessionFields>>;

/** What the lint reads, as written (lint) or parsed (build: durations are then milliseconds). */
export interface AwsSessionLintView {
  endpoint?: string | undefined;
  tcp?: { tcp_user_timeout?: string | number } | undefined;
  credentials?: Partial<RawAwsSessionConfig['credentials'] & object> | undefined;
}

/** A value that is only a `${VAR}` reference is checked when it is resolved, not at lint. */
const ENV_ONLY = /^\$\{[^}]+\}$/;

/**
 * What nekton cannot run, said at lint (`prefix` names where the fields sit, e.g. `dynamodb.`):
 * assumed roles and EC2 instance roles, a TCP user timeout, and an endpoint that is not an
 * http(s) URL.
 */
export function lintAwsSession(config: AwsSessionLintView, prefix = ''): string[] {
  const problems: string[] = [];
  const creds = config.credentials;
  if (creds?.role)
    problems.push(
      `${prefix}credentials.role: assuming a role (STS) is not supported by nekton; give credentials.id and credentials.secret (or a profile) of the role's session instead`,
    );
  if (creds?.from_ec2_role)
    problems.push(
      `${prefix}credentials.from_ec2_role: EC2 instance roles are not supported by nekton; give credentials.id and credentials.secret, a profile, or the AWS_* environment variables`,
    );
  if (creds?.secret && !creds.id && !creds.profile)
    problems.push(`${prefix}credentials.secret is set without credentials.id`);
  const userTimeout = config.tcp?.tcp_user_timeout;
  const timeoutSet =
    typeof userTimeout === 'number'
      ? userTimeout > 0
      : !!userTimeout && !/^0+[a-zµ]*$/.test(userTimeout.trim());
  if (timeoutSet)
    problems.push(`${prefix}tcp.tcp_user_timeout: Node.js cannot set a TCP user timeout; leave it at 0s`);
  const endpoint = config.endpoint;
  if (endpoint && !ENV_ONLY.test(endpoint.trim())) {
    let ok = false;
    try {
      const url = new URL(endpoint);
      ok = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      ok = false;
    }
    if (!ok) problems.push(`${prefix}endpoint: '${endpoint}' is not an http:// or https:// URL`);
  }
  return problems;
}
