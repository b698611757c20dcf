// OAuth 2 client credentials (RFC 6749 4.4) for the HTTP client components: a token is fetched
// from `token_url`, shared by every request until it expires, then fetched again. As the
// reference (golang.org/x/oauth2), a token counts as expired 10s early, and `endpoint_params`
// with `grant_type: [refresh_token]` switches to the refresh-token grant.
import type { IncomingHttpHeaders } from 'node:http';
import { redactUrl } from '../../connection/urls.js';

export interface OAuth2Settings {
  client_key: string;
  client_secret: string;
  token_url: string;
  scopes: string[];
  endpoint_params?: Record<string, unknown>;
}

/** Sends one POST and resolves with the answer, whatever its status. */
export type TokenPost = (
  url: string,
  headers: Record<string, string>,
  body: Buffer,
) => Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>;

interface Token {
  authorization: string;
  /** ms since the epoch after which it is fetched again; Infinity without `expires_in`. */
  staleAt: number;
}

const EXPIRY_DELTA_MS = 10_000;

/** Go's url.QueryEscape, which the reference's basic auth header of the token request uses. */
const queryEscape = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');

export class OAuth2Tokens {
  private token: Token | null = null;
  private fetching: Promise<Token> | null = null;
  /** The client authentication that worked: a basic auth header first, then form fields. */
  private style: 'header' | 'params' | null = null;
  private refreshToken: string | undefined;
  private readonly params: [string, string][] = [];

  constructor(
    private readonly settings: OAuth2Settings,
    private readonly post: TokenPost,
    private readonly now: () => number = Date.now,
  ) {
    for (const [k, v] of Object.entries(settings.endpoint_params ?? {})) {
      for (const item of Array.isArray(v) ? v : [v]) this.params.push([k, String(item)]);
    }
    if (this.params.find(([k]) => k === 'grant_type')?.[1] === 'refresh_token')
      this.refreshToken = this.params.find(([k]) => k === 'refresh_token')?.[1] ?? '';
  }

  /** The Authorization header value, from the cached token or a new one. */
  async authorization(): Promise<string> {
    const token = this.token;
    if (token && this.now() < token.staleAt) return token.authorization;
    this.fetching ??= this.fetch().finally(() => {
      this.fetching = null;
    });
    return (await this.fetching).authorization;
  }

  /** The resource server refused the token: the next request fetches another. */
  invalidate(): void {
    this.token = null;
  }

  private form(style: 'header' | 'params'): URLSearchParams {
    const form = new URLSearchParams();
    if (this.refreshToken !== undefined) {
      form.set('grant_type', 'refresh_token');
      form.set('refresh_token', this.refreshToken);
    } else {
      form.set('grant_type', 'client_credentials');
      if (this.settings.scopes.length) form.set('scope', this.settings.scopes.join(' '));
      // grant_type may be overridden, as the reference allows for non-compliant servers.
      for (const [k] of this.params) form.delete(k);
      for (const [k, v] of this.params) form.append(k, v);
    }
    if (style === 'params') {
      form.set('client_id', this.settings.client_key);
      if (this.settings.client_secret) form.set('client_secret', this.settings.client_secret);
    }
    return form;
  }

  private async fetch(): Promise<Token> {
    const styles = this.style ? [this.style] : (['header', 'params'] as const);
    let failure = '';
    for (const style of styles) {
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      };
      if (style === 'header') {
        const { client_key: id, client_secret: secret } = this.settings;
        headers.authorization = `Basic ${Buffer.from(`${queryEscape(id)}:${queryEscape(secret)}`).toString('base64')}`;
      }
      let res: Awaited<ReturnType<TokenPost>>;
      try {
        res = await this.post(this.settings.token_url, headers, Buffer.from(this.form(style).toString()));
      } catch (err) {
        throw this.error(`could not be reached: ${(err as Error).message}`);
      }
      if (res.status < 200 || res.status > 299) {
        failure = `answered HTTP ${res.status}${errorCode(res.body)}`;
        continue;
      }
      const token = this.parse(res.headers['content-type'] ?? '', res.body);
      this.style = style;
      this.token = token;
      return token;
    }
    throw this.error(failure);
  }

  private parse(contentType: string, body: Buffer): Token {
    let fields: Record<string, unknown>;
    if (/application\/x-www-form-urlencoded|text\/plain/i.test(contentType)) {
      fields = Object.fromEntries(new URLSearchParams(body.toString()));
    } else {
      try {
        fields = JSON.parse(body.toString()) as Record<string, unknown>;
      } catch {
        throw this.error('answered with a body that is not JSON');
      }
    }
    const access = fields.access_token;
    if (typeof access !== 'string' || access === '') throw this.error('answered without an access_token');
    if (typeof fields.refresh_token === 'string' && fields.refresh_token && this.refreshToken !== undefined)
      this.refreshToken = fields.refresh_token;
    const seconds = Number(fields.expires_in ?? 0);
    return {
      authorization: `${tokenType(fields.token_type)} ${access}`,
      staleAt: seconds > 0 ? this.now() + seconds * 1000 - EXPIRY_DELTA_MS : Number.POSITIVE_INFINITY,
    };
  }

  private error(why: string): Error {
    return new Error(
      `oauth2: the token endpoint (oauth2.token_url ${redactUrl(this.settings.token_url)}) ${why}`,
    );
  }
}

/** The type as Go's oauth2 Token.Type() spells it; Bearer when absent. */
function tokenType(type: unknown): string {
  if (typeof type !== 'string' || type === '' || type.toLowerCase() === 'bearer') return 'Bearer';
  if (type.toLowerCase() === 'mac') return 'MAC';
  if (type.toLowerCase() === 'basic') return 'Basic';
  return type;
}

/** The RFC 6749 5.2 `error` code of a refusal, when it is a short plain word (never the body). */
function errorCode(body: Buffer): string {
  try {
    const code = (JSON.parse(body.toString()) as { error?: unknown }).error;
    return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? ` (${code})` : '';
  } catch {
    return '';
  }
}
