// Turns the shared AWS session fields into the options every AWS SDK v3 client takes (region,
// endpoint, credentials, HTTP agents), and AWS errors into messages that name the field to fix.
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { nodeHttp, nodeHttps } from '../../base/lazy_builtins.js';
import { ConfigError, errorMessage, NotConnectedError } from '../../engine/errors.js';
import { type AwsSessionConfig, lintAwsSession } from '../fields/aws.js';
import { refuseProblems } from '../fields/config_problems.js';

// The SDK warns once per process that its releases after January 2027 need Node 22; nekton runs
// on Node 20 with the versions it pins, so the warning only adds noise to every log.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** Static credentials, or what a profile resolves to. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
}

/** The options shared by every AWS SDK v3 client constructor that nekton builds. */
export interface AwsClientOptions {
  region: string;
  endpoint?: string;
  credentials?: AwsCredentials | (() => Promise<AwsCredentials>);
  requestHandler?: {
    connectionTimeout?: number;
    requestTimeout?: number;
    httpAgent?: HttpAgent;
    httpsAgent?: HttpsAgent;
  };
  maxAttempts?: number;
}

/** Where a client talks to, for messages: the custom endpoint or AWS's endpoint for the region. */
export function describeTarget(options: AwsClientOptions, service: string): string {
  return options.endpoint ?? `AWS ${service} in ${options.region}`;
}

/**
 * The client options of one component. `component` prefixes config errors (`aws_s3: `). The
 * region defaults to AWS_REGION, AWS_DEFAULT_REGION, then us-east-1 (the reference leaves it to
 * the SDK's shared config, which nekton does not read for the region).
 */
export function awsClientOptions(config: AwsSessionConfig, component: string, prefix = ''): AwsClientOptions {
  refuseProblems(lintAwsSession(config, prefix), `${component}: `);
  const region =
    nonEmpty(config.region) ?? nonEmpty(process.env.AWS_REGION) ?? nonEmpty(process.env.AWS_DEFAULT_REGION);
  const options: AwsClientOptions = { region: region ?? 'us-east-1' };
  const endpoint = nonEmpty(config.endpoint);
  if (endpoint) options.endpoint = endpoint;

  const creds = config.credentials;
  if (nonEmpty(creds?.profile)) {
    const profile = creds?.profile as string;
    // Loaded on first use, like the SDK clients (see library.ts).
    options.credentials = async () =>
      (await import('@aws-sdk/credential-provider-ini')).fromIni({ profile })();
  } else if (nonEmpty(creds?.id)) {
    const secret = creds?.secret ?? '';
    if (secret === '')
      throw new ConfigError(`${component}: ${prefix}credentials.id is set without credentials.secret`);
    options.credentials = {
      accessKeyId: creds?.id as string,
      secretAccessKey: secret,
      ...(nonEmpty(creds?.token) ? { sessionToken: creds?.token as string } : {}),
    };
  }

  const tcp = config.tcp;
  if (tcp) {
    const handler: NonNullable<AwsClientOptions['requestHandler']> = {};
    if (tcp.connect_timeout > 0) handler.connectionTimeout = tcp.connect_timeout;
    if (tcp.keep_alive) {
      const agentOptions = { keepAlive: true, keepAliveMsecs: tcp.keep_alive.idle };
      handler.httpAgent = new (nodeHttp().Agent)(agentOptions);
      handler.httpsAgent = new (nodeHttps().Agent)(agentOptions);
    }
    options.requestHandler = handler;
  }
  return options;
}

function nonEmpty(value: string | undefined | null): string | undefined {
  return value === undefined || value === null || value.trim() === '' ? undefined : value;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
]);

const CREDENTIAL_ERRORS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidToken',
  'MissingAuthenticationToken',
  'MissingAuthenticationTokenException',
  'IncompleteSignature',
  'IncompleteSignatureException',
]);

interface AwsErrorShape {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** True when the error means the endpoint could not be reached (the engine should reconnect). */
export function isNetworkError(err: unknown): boolean {
  let e = err as AwsErrorShape | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code && NETWORK_CODES.has(e.code)) return true;
    if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
    e = e.cause as AwsErrorShape | undefined;
  }
  return false;
}

/** True when AWS (or the emulator) rejected the credentials. */
export function isCredentialError(err: unknown): boolean {
  const e = err as AwsErrorShape | undefined;
  const name = e?.name ?? '';
  return (
    CREDENTIAL_ERRORS.has(name) || CREDENTIAL_ERRORS.has(e?.Code ?? '') || name === 'CredentialsProviderError'
  );
}

/**
 * An AWS error as a message that names what to fix: the endpoint when it cannot be reached, the
 * credentials fields when they are refused or missing. Never includes a secret (the SDK's
 * messages carry none; the text is also scrubbed on its way to logs).
 */
export function awsErrorText(err: unknown, target: string, prefix = ''): string {
  const e = err as AwsErrorShape | undefined;
  const message = errorMessage(err);
  if (isNetworkError(err)) return `cannot reach ${prefix}endpoint ${target}: ${message}`;
  if (e?.name === 'CredentialsProviderError')
    return `no AWS credentials found for ${target}: set ${prefix}credentials.id and ${prefix}credentials.secret, ${prefix}credentials.profile, or the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY environment variables (${message})`;
  if (isCredentialError(err))
    return `${target} refused the credentials (check ${prefix}credentials.id, ${prefix}credentials.secret and ${prefix}credentials.token): ${e?.name}: ${message}`;
  const status = e?.$metadata?.httpStatusCode;
  return `${target}: ${e?.name && e.name !== 'Error' ? `${e.name}: ` : ''}${message}${status ? ` (HTTP ${status})` : ''}`;
}

/** The error to throw from a connector: NotConnectedError when the endpoint cannot be reached. */
export function awsError(err: unknown, target: string, what: string, prefix = ''): Error {
  const text = `${what}: ${awsErrorText(err, target, prefix)}`;
  return isNetworkError(err) ? new NotConnectedError(text) : new Error(text, { cause: err });
}
