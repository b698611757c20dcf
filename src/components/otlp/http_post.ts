// The otlp_http output's POST: node:http(s) with a keep-alive agent per output, so the `tls`
// settings (skip_cert_verify, client certificate) apply; redirects followed only when asked.
import { readFile } from 'node:fs/promises';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { nodeHttp, nodeHttps } from '../../base/lazy_builtins.js';

export interface PostTls {
  enabled: boolean;
  skip_cert_verify: boolean;
  cert_file: string;
  key_file: string;
}

export interface PostResult {
  status: number;
  body: string;
}

const MAX_REDIRECTS = 5;
const MAX_ANSWER = 64 * 1024;

export class OtlpPoster {
  private constructor(
    private readonly httpAgent: HttpAgent,
    private readonly httpsAgent: HttpsAgent,
    private readonly followRedirects: boolean,
  ) {}

  static async create(tls: PostTls | undefined, followRedirects: boolean): Promise<OtlpPoster> {
    const [cert, key] = await Promise.all([
      tls?.cert_file ? readFile(tls.cert_file) : undefined,
      tls?.key_file ? readFile(tls.key_file) : undefined,
    ]);
    const httpsAgent = new (nodeHttps().Agent)({
      keepAlive: true,
      rejectUnauthorized: !(tls?.enabled && tls.skip_cert_verify),
      ...(cert ? { cert } : {}),
      ...(key ? { key } : {}),
    });
    return new OtlpPoster(new (nodeHttp().Agent)({ keepAlive: true }), httpsAgent, followRedirects);
  }

  async post(
    url: string,
    headers: Record<string, string>,
    body: Uint8Array,
    timeoutMs: number,
  ): Promise<PostResult> {
    let target = new URL(url);
    for (let hop = 0; ; hop++) {
      const res = await this.once(target, headers, body, timeoutMs);
      const location = res.location;
      if (
        this.followRedirects &&
        location &&
        [301, 302, 303, 307, 308].includes(res.status) &&
        hop < MAX_REDIRECTS
      ) {
        target = new URL(location, target);
        continue;
      }
      return { status: res.status, body: res.body };
    }
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private once(
    url: URL,
    headers: Record<string, string>,
    body: Uint8Array,
    timeoutMs: number,
  ): Promise<PostResult & { location?: string }> {
    const https = url.protocol === 'https:';
    const request = https ? nodeHttps().request : nodeHttp().request;
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent: https ? this.httpsAgent : this.httpAgent,
          headers: { ...headers, 'Content-Length': String(body.length) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < MAX_ANSWER) chunks.push(c);
            size += c.length;
          });
          res.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER),
              ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
            });
          });
          res.on('error', reject);
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs}ms`)), timeoutMs);
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(body);
    });
  }
}
