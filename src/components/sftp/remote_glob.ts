// Glob patterns expanded on the server, with the reference's rules (Go's path.Match, as its SFTP
// client's Glob uses): `*` and `?` stay within one path segment, `[a-z]`/`[^a-z]` classes, `\`
// escapes; no `**` and no braces. A plain path is kept only when it exists; matches are sorted
// within each directory.
import { isMissing, type SftpConnection } from './sftp_connection.js';

const META = /[*?[\\]/;

/** A path.Match pattern (one segment) as a regular expression; throws on a malformed class. */
export function segmentMatcher(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '\\') {
      i++;
      if (i >= pattern.length) throw new Error(`syntax error in pattern ${pattern}`);
      out += literal(pattern[i] as string);
    } else if (ch === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) throw new Error(`syntax error in pattern ${pattern}`);
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^/' : ''}${body.replace(/\\(.)/g, '$1').replace(/[\]\\^]/g, '\\$&')}]`;
      i = end;
    } else out += literal(ch);
  }
  return new RegExp(`^${out}$`, 'su');
}

function literal(ch: string): string {
  return ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Index of the `]` closing the class opened at `start` (a first `]` or an escaped one is literal). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return -1;
}

function split(pattern: string): [string, string] {
  const slash = pattern.lastIndexOf('/');
  if (slash < 0) return ['.', pattern];
  return [slash === 0 ? '/' : pattern.slice(0, slash), pattern.slice(slash + 1)];
}

function join(dir: string, name: string): string {
  if (dir === '.') return name;
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** The paths on the server a pattern names (plain paths only when they exist). */
export async function remoteGlob(conn: SftpConnection, pattern: string): Promise<string[]> {
  if (!META.test(pattern)) {
    try {
      await conn.stat(pattern);
      return [pattern];
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }
  const [dir, file] = split(pattern);
  const matcher = segmentMatcher(file);
  const dirs = META.test(dir) ? await remoteGlob(conn, dir) : [dir];
  const out: string[] = [];
  for (const d of dirs) {
    let names: string[];
    try {
      names = await conn.readdir(d);
    } catch (err) {
      // A directory that is missing or is a file matches nothing, as in the reference.
      if (isMissing(err) || (err as { code?: unknown }).code === 4) continue;
      throw err;
    }
    for (const name of names) if (matcher.test(name)) out.push(join(d, name));
  }
  return out;
}
