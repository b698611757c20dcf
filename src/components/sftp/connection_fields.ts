// The connection fields the sftp input and output share (`address`, `connection_timeout`,
// `credentials`) and what lint says about them: the checks that need only the config.
import { field, type RawConfigOf } from '../../config/spec.js';

export function connectionFields() {
  return [
    field.string('address', 'The address of the server to connect to, as `host:port`.', {
      examples: ['127.0.0.1:22', 'sftp.example.com:2222'],
    }),
    field.duration(
      'connection_timeout',
      'The connection timeout to use when connecting to the target server.',
      {
        default: '30s',
        advanced: true,
      },
    ),
    field.object('credentials', 'The credentials to use to log into the target server.', [
      field.string('username', 'The username to authenticate with the SFTP server.', { default: '' }),
      field.secret('password', 'The password for the specified username to connect to the SFTP server.', {
        default: '',
      }),
      field.string(
        'host_public_key_file',
        "The path to the SFTP server's public key file, used for host key verification.",
        { optional: true },
      ),
      field.string(
        'host_public_key',
        "The raw contents of the SFTP server's public key (`ssh-ed25519 AAAA...`), used for host key verification. Without either host key field the server must be listed in `~/.ssh/known_hosts`.",
        { optional: true },
      ),
      field.string(
        'private_key_file',
        'The path to the private key file, used for authenticating the username.',
        {
          optional: true,
        },
      ),
      field.secret(
        'private_key',
        'The raw contents of the private key, used for authenticating the username.',
        {
          optional: true,
        },
      ),
      field.secret(
        'private_key_pass',
        "Optional passphrase for decrypting the private key, if it's encrypted.",
        {
          default: '',
        },
      ),
    ]),
  ] as const;
}

export type ConnectionRaw = RawConfigOf<ReturnType<typeof connectionFields>>;

const set = (v: string | undefined): v is string => v !== undefined && v !== null && v !== '';

/** `host:port` (IPv6 in brackets), or undefined when the address has no port. */
export function splitAddress(address: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(address.trim());
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1] ?? m[2] ?? '', port };
}

/** Whether a host key line looks like `type base64 [comment]` (what authorized_keys holds). */
export function parsePublicKeyLine(text: string): { type: string; blob: Buffer } | undefined {
  const parts = text.trim().split(/\s+/);
  // An authorized_keys line may start with options: the key type is the first `ssh-`/`ecdsa-`/`sk-` word.
  const at = parts.findIndex((p) => /^(ssh-|ecdsa-|sk-)/.test(p));
  const type = parts[at];
  const data = parts[at + 1];
  if (at < 0 || type === undefined || data === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(data))
    return undefined;
  const blob = Buffer.from(data, 'base64');
  // The blob starts with its own type name: a key pasted with the wrong type is refused.
  const nameLength = blob.length >= 4 ? blob.readUInt32BE(0) : -1;
  if (nameLength < 0 || blob.subarray(4, 4 + nameLength).toString() !== type) return undefined;
  return { type, blob };
}

export function lintConnection(config: Pick<ConnectionRaw, 'address' | 'credentials'>): string[] {
  const problems: string[] = [];
  const c = config.credentials;
  if (typeof config.address === 'string' && config.address !== '' && !config.address.includes('${')) {
    if (!splitAddress(config.address)) problems.push(`address: expected host:port, got '${config.address}'`);
  }
  if (!c) return problems;
  // The reference's own lint messages, word for word.
  if (set(c.host_public_key) && set(c.host_public_key_file))
    problems.push("both host_public_key and host_public_key_file can't be set simultaneously");
  if (set(c.private_key) && set(c.private_key_file))
    problems.push("both private_key and private_key_file can't be set simultaneously");
  if (!set(c.password) && !set(c.private_key) && !set(c.private_key_file))
    problems.push(
      'credentials: at least one authentication method must be provided (password, private_key or private_key_file)',
    );
  if (set(c.host_public_key) && !c.host_public_key.includes('${') && !parsePublicKeyLine(c.host_public_key))
    problems.push('credentials.host_public_key: not a public key line such as `ssh-ed25519 AAAA... comment`');
  return problems;
}
