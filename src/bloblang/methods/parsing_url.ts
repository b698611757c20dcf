// URL parsing with the structure and error texts of Go's net/url.Parse, for `parse_url`.
import { bytesToString, stringToBytes, type ValueObject } from '../value.js';
import { fail } from './support.js';

type Mode = 'path' | 'host' | 'userinfo' | 'fragment' | 'zone';

function unhex(c: string): number {
  return Number.parseInt(c, 16);
}

/** Go's url.unescape for a given component (no `+` handling outside queries). */
function unescapeComponent(s: string, mode: Mode): string {
  let n = 0;
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      n++;
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
        let bad = s.slice(i);
        if (bad.length > 3) bad = bad.slice(0, 3);
        throw new UrlEscapeError(`invalid URL escape ${JSON.stringify(bad)}`);
      }
      if (mode === 'host' && unhex(hex) < 0x80 && hex !== '25') {
        throw new UrlEscapeError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      }
      i += 3;
    } else {
      if (
        mode === 'host' &&
        s[i] !== '[' &&
        s[i] !== ']' &&
        /[^A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"]/.test(s[i])
      ) {
        throw new UrlEscapeError(`invalid character ${JSON.stringify(s[i])} in host name`);
      }
      i++;
    }
  }
  if (n === 0) return s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') {
      bytes.push(unhex(s.slice(i + 1, i + 3)));
      i += 2;
    } else for (const b of stringToBytes(s[i])) bytes.push(b);
  }
  return bytesToString(Uint8Array.from(bytes));
}

class UrlEscapeError extends Error {}

/** Go's shouldEscape for paths and fragments, used to decide whether a raw form is kept. */
function escapeComponent(s: string, mode: 'path' | 'fragment'): string {
  let out = '';
  for (const b of stringToBytes(s)) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-._~]/.test(c)) out += c;
    else if ('$&+,/:;=@'.includes(c)) out += c;
    else if (mode === 'fragment' && '!()*?'.includes(c)) out += c;
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function validEncoded(s: string, mode: 'path' | 'fragment'): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]".includes(c)) continue;
    if (c === '%') continue;
    if (escapeComponent(c, mode) !== c) return false;
  }
  return true;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlEscapeError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** Parses a URL into the object `parse_url` returns. */
export function parseGoUrl(raw: string): ValueObject {
  try {
    return parseUrl(raw);
  } catch (e) {
    if (e instanceof UrlEscapeError) throw fail(`parse ${JSON.stringify(raw.split('#')[0])}: ${e.message}`);
    throw e;
  }
}

function parseUrl(full: string): ValueObject {
  const hash = full.indexOf('#');
  const rawUrl = hash < 0 ? full : full.slice(0, hash);
  const rawFrag = hash < 0 ? '' : full.slice(hash + 1);
  if (/[\x00-\x1f\x7f]/.test(full)) throw new UrlEscapeError('net/url: invalid control character in URL');
  const out: ValueObject = {
    scheme: '',
    opaque: '',
    host: '',
    path: '',
    raw_path: '',
    raw_query: '',
    fragment: '',
    raw_fragment: '',
  };
  let [scheme, rest] = getScheme(rawUrl);
  scheme = scheme.toLowerCase();
  out.scheme = scheme;
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      out.raw_query = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') {
      out.opaque = rest;
      setFragment(out, rawFrag);
      return out;
    }
    const slash = rest.indexOf('/');
    const seg = slash < 0 ? rest : rest.slice(0, slash);
    if (seg.includes(':')) throw new UrlEscapeError('first path segment in URL cannot contain colon');
  }
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    let remaining = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      remaining = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    let host = authority;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      host = authority.slice(at + 1);
      if (/[^A-Za-z0-9\-._~!$&'()*+,;=:%@]/.test(userinfo))
        throw new UrlEscapeError('net/url: invalid userinfo');
      const colon = userinfo.indexOf(':');
      const user: ValueObject = {
        name: unescapeComponent(colon < 0 ? userinfo : userinfo.slice(0, colon), 'userinfo'),
      };
      if (colon >= 0) user.password = unescapeComponent(userinfo.slice(colon + 1), 'userinfo');
      out.user = user;
    }
    out.host = parseHost(host);
    rest = remaining;
  }
  out.path = unescapeComponent(rest, 'path');
  if (rest !== escapeComponent(out.path as string, 'path') && validEncoded(rest, 'path')) out.raw_path = rest;
  setFragment(out, rawFrag);
  return out;
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) throw new UrlEscapeError("missing ']' in host");
    const port = host.slice(end + 1);
    if (port !== '' && !/^:\d*$/.test(port)) {
      throw new UrlEscapeError(`invalid port ${JSON.stringify(port)} after host`);
    }
    return unescapeComponent(host, 'host');
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0) {
    const port = host.slice(colon);
    if (!/^:\d*$/.test(port)) throw new UrlEscapeError(`invalid port ${JSON.stringify(port)} after host`);
  }
  return unescapeComponent(host, 'host');
}

function setFragment(out: ValueObject, raw: string): void {
  const frag = unescapeComponent(raw, 'fragment');
  out.fragment = frag;
  if (raw !== '' && raw !== escapeComponent(frag, 'fragment') && validEncoded(raw, 'fragment')) {
    out.raw_fragment = raw;
  }
}
