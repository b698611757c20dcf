// Local servers for the auth and proxy tests of the HTTP client components: a recording resource
// server, an OAuth 1 verifier written from RFC 5849's steps (independently of the signer), an
// OAuth 2 token endpoint, a counting forward proxy and throwaway signing keys.
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildComponents } from './support.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A node:http server on 127.0.0.1 that records requests and answers `reply(seen)` (200 "ok"). */
export async function recorder(
  reply: (
    seen: Seen,
    n: number,
  ) => { status: number; body?: string; headers?: Record<string, string> } = () => ({
    status: 200,
  }),
): Promise<{ server: Server; base: string; seen: Seen[]; port: number }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(s);
      const r = reply(s, seen.length - 1);
      res.writeHead(r.status, r.headers ?? {}).end(r.body ?? 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, base: `http://127.0.0.1:${port}`, seen, port };
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}

// --- OAuth 1: RFC 5849 3.4.1 step by step, byte by byte (not the signer's encodeURIComponent).

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function rfc3986(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Form decoding of 3.4.1.3.1: `+` is a space, then percent-decoding. */
function formPairs(text: string): [string, string][] {
  if (!text) return [];
  return text.split('&').map((part) => {
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    const dec = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return [dec(k), dec(v)];
  });
}

/**
 * Whether the request carries a valid HMAC-SHA1 signature for these secrets: the base string is
 * rebuilt from the raw request line, Host header, Authorization parameters and form body.
 */
export function oauth1Valid(seen: Seen, consumerSecret: string, tokenSecret: string): boolean {
  const header = String(seen.headers.authorization ?? '');
  if (!header.startsWith('OAuth ')) return false;
  const oauth: [string, string][] = [];
  for (const m of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) {
    oauth.push([decodeURIComponent(m[1] as string), decodeURIComponent(m[2] as string)]);
  }
  const signature = oauth.find(([k]) => k === 'oauth_signature')?.[1];
  if (!signature) return false;
  const [path, query = ''] = seen.url.split('?');
  const params = [...oauth.filter(([k]) => k !== 'oauth_signature' && k !== 'realm'), ...formPairs(query)];
  if (String(seen.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    params.push(...formPairs(seen.body));
  // Sorted by encoded name, then value (3.4.1.3.2).
  const encoded = params.map(([k, v]) => [rfc3986(k), rfc3986(v)] as const);
  encoded.sort((x, y) => (x[0] === y[0] ? (x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? -1 : 1));
  const normalized = encoded.map(([k, v]) => `${k}=${v}`).join('&');
  const baseUri = `http://${String(seen.headers.host).toLowerCase()}${path}`;
  const base = `${seen.method}&${rfc3986(baseUri)}&${rfc3986(normalized)}`;
  const expected = createHmac('sha1', `${rfc3986(consumerSecret)}&${rfc3986(tokenSecret)}`)
    .update(base)
    .digest('base64');
  return expected === signature;
}

// --- OAuth 2: a token endpoint that hands out tokens t1, t2, ... with the given lifetimes.

export interface TokenRequest {
  authorization: string | undefined;
  form: URLSearchParams;
}

export async function tokenEndpoint(
  answer: (n: number) => { status: number; expiresIn?: number } = () => ({ status: 200, expiresIn: 3600 }),
) {
  const requests: TokenRequest[] = [];
  const { server, base } = await recorder((seen, n) => {
    requests.push({ authorization: seen.headers.authorization, form: new URLSearchParams(seen.body) });
    const a = answer(n);
    if (a.status !== 200) return { status: a.status, body: '{"error":"invalid_client"}' };
    const token: Record<string, unknown> = { access_token: `t${n + 1}`, token_type: 'bearer' };
    if (a.expiresIn !== undefined) token.expires_in = a.expiresIn;
    return { status: 200, body: JSON.stringify(token), headers: { 'content-type': 'application/json' } };
  });
  return { server, url: `${base}/token`, requests };
}

// --- proxy_url: a forward proxy that counts absolute-form requests and CONNECT tunnels.

export async function forwardProxy(options: { requireAuth?: string } = {}) {
  const counts = { requests: 0, connects: 0, refused: 0 };
  const tunnels = new Set<Socket>();
  const refuse = (auth: string | undefined) =>
    options.requireAuth !== undefined && auth !== options.requireAuth;
  const server = createServer((req, res) => {
    if (refuse(req.headers['proxy-authorization'])) {
      counts.refused++;
      res.writeHead(407).end();
      return;
    }
    counts.requests++;
    const target = new URL(req.url ?? '');
    const upstream = request(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    if (refuse(req.headers['proxy-authorization'])) {
      counts.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    counts.connects++;
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host as string, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    tunnels.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', drop);
    client.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    counts,
    close: () => {
      for (const s of tunnels) s.destroy();
      return close(server);
    },
  };
}

// --- JWT: a key pair whose private half is a PEM file in a temp dir.

export function keyFile(type: 'rsa' | 'ed25519'): { file: string; publicKey: KeyObject } {
  const { privateKey, publicKey } =
    type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ed25519');
  const dir = mkdtempSync(join(tmpdir(), 'nekton-jwt-'));
  const file = join(dir, `${type}.pem`);
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return { file, publicKey };
}

export { buildComponents };
