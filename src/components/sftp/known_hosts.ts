// The keys an OpenSSH known_hosts file accepts for one host: what the sftp components check the
// server against when no host key is configured (as the reference does with ~/.ssh/known_hosts).
import { createHmac } from 'node:crypto';

export interface KnownKeys {
  /** Accepted key blobs (the base64 of each line, decoded). */
  accepted: Buffer[];
  /** Keys marked @revoked for any host: never accepted. */
  revoked: Buffer[];
}

/** The name known_hosts uses for a host: `host` on port 22, else `[host]:port`. */
export function knownHostName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** A `*`/`?` pattern of a known_hosts host list, as a regular expression. */
function wildcard(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

/** `|1|salt|hash`: HMAC-SHA1 of the name keyed by the salt. */
function hashedMatches(entry: string, name: string): boolean {
  const [, magic, salt, hash] = entry.split('|');
  if (magic !== '1' || salt === undefined || hash === undefined) return false;
  return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
}

/** Whether a comma-separated host list names the host (a `!pattern` match excludes it). */
function hostsMatch(list: string, name: string): boolean {
  if (list.startsWith('|')) return hashedMatches(list, name);
  let matched = false;
  for (const pattern of list.split(',')) {
    const negated = pattern.startsWith('!');
    if (wildcard(negated ? pattern.slice(1) : pattern).test(name)) {
      if (negated) return false;
      matched = true;
    }
  }
  return matched;
}

export function knownKeysFor(text: string, host: string, port: number): KnownKeys {
  const name = knownHostName(host, port);
  const out: KnownKeys = { accepted: [], revoked: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    const marker = parts[0]?.startsWith('@') ? parts.shift() : undefined;
    const [hosts, , blob] = parts;
    if (hosts === undefined || blob === undefined) continue;
    const key = Buffer.from(blob, 'base64');
    if (marker === '@revoked') out.revoked.push(key);
    // Certificate authorities are not supported: their lines are skipped.
    else if (marker === undefined && hostsMatch(hosts, name)) out.accepted.push(key);
  }
  return out;
}

/** The key type a blob names (its first string). */
export function keyType(blob: Buffer): string {
  return blob.length >= 4 ? blob.subarray(4, 4 + blob.readUInt32BE(0)).toString() : '';
}
