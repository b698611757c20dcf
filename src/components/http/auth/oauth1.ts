// OAuth 1.0a request signing with HMAC-SHA1 (RFC 5849 section 3): the `oauth` field of the HTTP
// client components and the websocket handshake.
import { createHmac, randomBytes } from 'node:crypto';

export interface OAuth1Credentials {
  consumer_key: string;
  consumer_secret: string;
  access_token: string;
  access_token_secret: string;
}

/** What one signature covers; `nonce` and `timestamp` are fixed only by tests. */
export interface OAuth1Request {
  method: string;
  url: URL;
  /** The body, counted only when it is `application/x-www-form-urlencoded` (RFC 5849 3.4.1.3.1). */
  form?: string;
  nonce?: string;
  timestamp?: string;
}

/** RFC 3986 percent-encoding of everything but unreserved characters (RFC 5849 3.6). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The base string URI: scheme and host lowercased, default port dropped, no query (3.4.1.2). */
function baseUri(url: URL): string {
  // URL already lowercases scheme and host and drops a default port. A websocket handshake is
  // an HTTP GET: the server sees (and verifies) http or https.
  const scheme = url.protocol === 'ws:' ? 'http:' : url.protocol === 'wss:' ? 'https:' : url.protocol;
  const port =
    url.port && !(scheme === 'http:' && url.port === '80') && !(scheme === 'https:' && url.port === '443');
  return `${scheme}//${url.hostname}${port ? `:${url.port}` : ''}${url.pathname}`;
}

/** The signature base string of RFC 5849 3.4.1: method, base URI and every parameter, sorted. */
export function signatureBaseString(method: string, url: URL, params: [string, string][]): string {
  const encoded = params.map(([k, v]) => [percentEncode(k), percentEncode(v)] as const);
  encoded.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const normalized = encoded.map(([k, v]) => `${k}=${v}`).join('&');
  return [method.toUpperCase(), percentEncode(baseUri(url)), percentEncode(normalized)].join('&');
}

/** The `Authorization: OAuth ...` header value for one request. */
export function oauth1Authorization(creds: OAuth1Credentials, req: OAuth1Request): string {
  const oauth: [string, string][] = [
    ['oauth_consumer_key', creds.consumer_key],
    ['oauth_nonce', req.nonce ?? randomBytes(16).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', req.timestamp ?? String(Math.floor(Date.now() / 1000))],
    ['oauth_token', creds.access_token],
    ['oauth_version', '1.0'],
  ];
  const params: [string, string][] = [...oauth, ...req.url.searchParams];
  if (req.form) params.push(...new URLSearchParams(req.form));
  const key = `${percentEncode(creds.consumer_secret)}&${percentEncode(creds.access_token_secret)}`;
  const signature = createHmac('sha1', key)
    .update(signatureBaseString(req.method, req.url, params))
    .digest('base64');
  oauth.splice(2, 0, ['oauth_signature', signature]);
  return `OAuth ${oauth.map(([k, v]) => `${k}="${percentEncode(v)}"`).join(', ')}`;
}
