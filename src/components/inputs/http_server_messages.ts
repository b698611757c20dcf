// What an http_server request becomes: its body as a message (a batch for a multipart body), with
// the request's user agent, path, verb, remote address, headers, query, path parameters and
// cookies as metadata.
import type { IncomingMessage } from 'node:http';
import { type Batch, Message } from '../../message/message.js';
import { decodeMultipart } from '../http/multipart.js';

/** Go's canonical header form (`content-type` -> `Content-Type`), which Benthos metadata keys use. */
export function canonicalHeaderKey(key: string): string {
  return key.toLowerCase().replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
}

/** Canonical forms of header names seen so far; bounded, since clients choose the names. */
const canonicalKeys = new Map<string, string>();
const CANONICAL_KEYS_MAX = 1024;

function cachedCanonicalKey(key: string): string {
  let canonical = canonicalKeys.get(key);
  if (canonical === undefined) {
    canonical = canonicalHeaderKey(key);
    if (canonicalKeys.size < CANONICAL_KEYS_MAX) canonicalKeys.set(key, canonical);
  }
  return canonical;
}

/** `new URL(url, base).pathname` without the parse when the target is a plain path (no query). */
const PLAIN_PATH = /^\/(?!\/)[\w\-/]*$/;

const MULTIPART = /^multipart\/[^;]+;.*boundary="?([^";]+)"?/i;

export function messagesOf(req: IncomingMessage, body: Buffer, params: Record<string, string>): Batch {
  const headers = req.headers;
  const contentType = headers['content-type'];
  // The regular expression only for what may be multipart (it starts with an m).
  const boundary =
    contentType !== undefined && (contentType.charCodeAt(0) | 0x20) === 0x6d
      ? MULTIPART.exec(contentType)?.[1]
      : undefined;
  const target = req.url ?? '/';
  const url = PLAIN_PATH.test(target) ? null : new URL(target, 'http://localhost');
  // One metadata map shared (copy-on-write) by every part of the request.
  const meta = new Map<string, unknown>();
  meta.set('http_server_user_agent', headers['user-agent'] ?? '');
  meta.set('http_server_request_path', url ? url.pathname : target);
  meta.set('http_server_verb', req.method ?? '');
  const remoteIp = req.socket.remoteAddress;
  if (remoteIp) meta.set('http_server_remote_ip', remoteIp);
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) meta.set(cachedCanonicalKey(k), Array.isArray(v) ? v[0] : v);
  }
  if (url)
    for (const [k, v] of url.searchParams)
      if (!meta.has(k) || !url.searchParams.getAll(k).indexOf(v)) meta.set(k, v);
  for (const k in params) meta.set(k, params[k]);
  if (headers.cookie !== undefined) {
    for (const cookie of headers.cookie.split(';')) {
      const eq = cookie.indexOf('=');
      if (eq > 0) meta.set(cookie.slice(0, eq).trim(), cookie.slice(eq + 1).trim());
    }
  }
  if (!boundary) return [new Message(body, meta, true)];
  return decodeMultipart(body, boundary).map((b) => new Message(b, meta, true));
}
