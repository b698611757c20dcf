// How the sftp input and output log in: the credentials resolved once at build (key files read,
// private keys parsed, the host key pinned or looked up in ~/.ssh/known_hosts), a connection made
// on each connect, and connection errors told as what to fix, naming the field, never a secret.
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConnectConfig } from 'ssh2';
import type SftpClient from 'ssh2-sftp-client';
import { SCRUBBED } from '../../config/secret_text.js';
import type { ConfigOf } from '../../config/spec.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { type connectionFields, parsePublicKeyLine, splitAddress } from './connection_fields.js';
import { keyType, knownKeysFor } from './known_hosts.js';
import { SftpConnection } from './sftp_connection.js';

type Ssh2Module = typeof import('ssh2');
type SftpClientClass = typeof SftpClient;

let libraries: { ssh2: Ssh2Module; Client: SftpClientClass } | undefined;

/** ssh2 and ssh2-sftp-client, loaded when an sftp component is built (not at every start). */
async function load(): Promise<{ ssh2: Ssh2Module; Client: SftpClientClass }> {
  if (!libraries) {
    const [ssh2, client] = await Promise.all([import('ssh2'), import('ssh2-sftp-client')]);
    libraries = {
      ssh2: ((ssh2 as { default?: Ssh2Module }).default ?? ssh2) as Ssh2Module,
      Client: ((client as { default?: SftpClientClass }).default ?? client) as SftpClientClass,
    };
  }
  return libraries;
}

export type ConnectionConfig = ConfigOf<ReturnType<typeof connectionFields>>;

const set = (v: string | undefined): v is string => v !== undefined && v !== null && v !== '';

/** The server host key algorithms that can present a key of this type. */
function algorithmsFor(type: string): string[] {
  return type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type];
}

export class SftpSession {
  private constructor(
    private readonly Client: SftpClientClass,
    readonly address: string,
    private readonly options: ConnectConfig,
    /** Which fields the login used, for the message when the server refuses it. */
    private readonly loginFields: string,
    /** Where the accepted host key came from, for the message when the server's differs. */
    private readonly hostKeySource: string,
    private readonly timeoutMs: number,
    private readonly secrets: string[],
  ) {}

  /** Reads key files and parses keys now, so a bad credential fails the build naming its field. */
  static async resolve(config: ConnectionConfig, component: string): Promise<SftpSession> {
    const { ssh2, Client } = await load();
    const target = splitAddress(config.address);
    if (!target) throw new ConfigError(`${component}: address: expected host:port, got '${config.address}'`);
    const c = config.credentials;
    const options: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: c.username,
      // 0 means no limit in the reference; ssh2 needs a number.
      readyTimeout: config.connection_timeout > 0 ? config.connection_timeout : 2 ** 31 - 1,
      keepaliveInterval: 10_000,
      keepaliveCountMax: 3,
    };
    const login: string[] = [];
    if (set(c.password)) {
      options.password = c.password;
      login.push('credentials.password');
    }
    const keyField = set(c.private_key) ? 'credentials.private_key' : 'credentials.private_key_file';
    const keyText = set(c.private_key)
      ? c.private_key
      : set(c.private_key_file)
        ? await readKeyFile(c.private_key_file, component, 'credentials.private_key_file')
        : undefined;
    if (keyText !== undefined) {
      const parsed = ssh2.utils.parseKey(keyText, set(c.private_key_pass) ? c.private_key_pass : undefined);
      if (parsed instanceof Error) {
        const hint = /passphrase|encrypted/i.test(parsed.message)
          ? ' (check credentials.private_key_pass)'
          : '';
        throw new ConfigError(
          `${component}: ${keyField}: cannot parse the private key: ${parsed.message}${hint}`,
        );
      }
      options.privateKey = keyText;
      if (set(c.private_key_pass)) options.passphrase = c.private_key_pass;
      login.push(keyField);
    }
    if (login.length === 0)
      throw new ConfigError(
        `${component}: credentials: at least one authentication method must be provided (password, private_key or private_key_file)`,
      );

    let hostKeySource: string;
    let accepted: Buffer[];
    let revoked: Buffer[] = [];
    if (set(c.host_public_key) || set(c.host_public_key_file)) {
      const hostField = set(c.host_public_key)
        ? 'credentials.host_public_key'
        : 'credentials.host_public_key_file';
      const text = set(c.host_public_key)
        ? c.host_public_key
        : await readKeyFile(c.host_public_key_file as string, component, hostField);
      const key = parsePublicKeyLine(text);
      if (!key)
        throw new ConfigError(
          `${component}: ${hostField}: not a public key line such as \`ssh-ed25519 AAAA... comment\``,
        );
      hostKeySource = hostField;
      accepted = [key.blob];
    } else {
      const file = join(homedir(), '.ssh', 'known_hosts');
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new ConfigError(
          `${component}: credentials: no host_public_key or host_public_key_file is set and ${file} cannot be read (${errorMessage(err)})`,
        );
      }
      ({ accepted, revoked } = knownKeysFor(text, target.host, target.port));
      hostKeySource = `${file} (or set credentials.host_public_key)`;
    }
    options.hostVerifier = (key: Buffer) =>
      accepted.some((k) => k.equals(key)) && !revoked.some((k) => k.equals(key));
    // Ask the server for the key type(s) expected, so one with several host keys shows the right one.
    const types = [...new Set(accepted.map(keyType).flatMap(algorithmsFor))];
    if (types.length > 0) options.algorithms = { serverHostKey: types as never };

    const secrets = [c.password, c.private_key, c.private_key_pass].filter(set);
    return new SftpSession(
      Client,
      config.address,
      options,
      login.join(', '),
      hostKeySource,
      config.connection_timeout,
      secrets,
    );
  }

  /** Logs in and opens the SFTP subsystem; `onLost` is called once if the connection drops later. */
  async connect(onLost: (err: Error) => void): Promise<SftpConnection> {
    let connection: SftpConnection | undefined;
    const lost = (err: Error) => connection?.markLost(err, onLost);
    const client = new this.Client('nekton', {
      error: (err: unknown) => lost(new Error(this.describe(err))),
      end: () => lost(new Error(`the server at ${this.address} ended the connection`)),
      close: () => lost(new Error(`the connection to ${this.address} closed`)),
    });
    try {
      const sftp = await client.connect(this.options);
      connection = new SftpConnection(client, sftp);
      return connection;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw new Error(this.describe(err));
    }
  }

  /** An error of this connection as a message saying what to fix; secrets never appear in it. */
  describe(err: unknown): string {
    const raw = errorMessage(err).replace(/^(getConnection|[a-zA-Z_]+): /, '');
    const code = (err as { code?: string } | null)?.code;
    let text: string;
    if (/All configured authentication methods failed/i.test(raw))
      text = `the server at ${this.address} refused the login of user '${this.options.username}' (check credentials.username, ${this.loginFields})`;
    else if (/Host denied|verification failed/i.test(raw))
      text = `the host key of the server at ${this.address} does not match ${this.hostKeySource}`;
    else if (code === 'ECONNREFUSED') text = `cannot reach ${this.address}: connection refused`;
    else if (/Timed out while waiting for handshake/i.test(raw))
      text = `no SSH handshake from ${this.address} within connection_timeout (${this.timeoutMs} ms)`;
    else text = `${this.address}: ${raw}`;
    return this.scrub(text);
  }

  /** Removes any secret value from a message (a server may echo what it was sent). */
  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join(SCRUBBED);
    return out;
  }
}

async function readKeyFile(path: string, component: string, fieldName: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${component}: ${fieldName}: cannot read ${path}: ${errorMessage(err)}`);
  }
}
