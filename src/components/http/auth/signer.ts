// The Authorization header of `oauth` (OAuth 1), `jwt` and `basic_auth`, in the reference's
// order: each later one enabled replaces the earlier (basic_auth wins). OAuth 2 is separate
// (./oauth2.ts) because its token is fetched over the network.
import type { KeyObject } from 'node:crypto';
import { ConfigError } from '../../../engine/errors.js';
import { type JwtSettings, loadJwtKey, signJwt } from './jwt.js';
import { type OAuth1Credentials, oauth1Authorization } from './oauth1.js';

type Enabled<T> = ({ enabled: boolean } & T) | undefined;

export interface SignerConfig {
  oauth?: Enabled<OAuth1Credentials>;
  jwt?: Enabled<JwtSettings>;
  basic_auth?: Enabled<{ username: string; password: string }>;
}

export class RequestSigner {
  private constructor(
    private readonly oauth: OAuth1Credentials | null,
    private readonly jwt: string | null,
    private readonly basic: string | null,
  ) {}

  /** Reads the JWT key now, so a bad key fails the build with the field named. */
  static async create(config: SignerConfig, path: string): Promise<RequestSigner> {
    let jwt: string | null = null;
    if (config.jwt?.enabled) {
      let key: KeyObject;
      try {
        key = await loadJwtKey(config.jwt);
      } catch (err) {
        throw new ConfigError(`${path}: ${(err as Error).message}`);
      }
      jwt = `Bearer ${signJwt(config.jwt, key)}`;
    }
    const basic = config.basic_auth?.enabled
      ? `Basic ${Buffer.from(`${config.basic_auth.username}:${config.basic_auth.password}`).toString('base64')}`
      : null;
    return new RequestSigner(config.oauth?.enabled ? config.oauth : null, jwt, basic);
  }

  get active(): boolean {
    return Boolean(this.oauth || this.jwt || this.basic);
  }

  /** The header for one request (OAuth 1 signs its method, URL and form body), if any. */
  authorization(method: string, url: URL, form?: string): string | undefined {
    if (this.basic) return this.basic;
    if (this.jwt) return this.jwt;
    if (this.oauth) return oauth1Authorization(this.oauth, { method, url, form });
    return undefined;
  }
}
