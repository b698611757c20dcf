// Keeps web pages away from the server's own routes (API, playground, built-ins): a browser sends
// any site's `text/plain` or form POST without a preflight, and a DNS-rebound name reaches a
// loopback listener with a foreign Host. `curl` and other non-browser clients send neither an
// Origin nor Sec-Fetch-Site, and keep working as before.
import type { IncomingMessage } from 'node:http';

export interface SiteGuardOptions {
  /** `http.cors.allowed_origins` when CORS is enabled (`*` allows every origin). */
  allowedOrigins: readonly string[];
  /** The listen host; a loopback one turns the Host check on. */
  listenHost: string | undefined;
  /** The bound port (known once listening). */
  port: () => number | undefined;
}

/** Returns why the request is refused (403), or undefined when it may go on. */
export type SiteGuard = (req: IncomingMessage) => string | undefined;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  return LOOPBACK_NAMES.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function createSiteGuard(options: SiteGuardOptions): SiteGuard {
  const origins = new Set(options.allowedOrigins);
  const anyOrigin = origins.has('*');
  const checkHost = isLoopbackHost(options.listenHost);

  return (req) => {
    const host = req.headers.host;
    if (checkHost && host !== undefined && !isOwnLoopbackHost(host, options.port())) {
      return `Host ${JSON.stringify(host)} is not this server's (it listens on loopback only)`;
    }
    if (anyOrigin) return undefined;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (origins.has(origin) || isSameOrigin(origin, host)) return undefined;
      return `cross-site request from origin ${JSON.stringify(origin)} is not allowed (see http.cors)`;
    }
    if (req.headers['sec-fetch-site'] === 'cross-site')
      return 'cross-site request is not allowed (see http.cors)';
    return undefined;
  };
}

/** `localhost`, `127.x.y.z` or `[::1]`, with no port or the server's own. */
function isOwnLoopbackHost(hostHeader: string, port: number | undefined): boolean {
  const parsed = splitHostPort(hostHeader);
  if (!parsed || !isLoopbackHost(parsed.name.toLowerCase())) return false;
  return parsed.port === undefined || port === undefined || parsed.port === port;
}

/** The page's origin is this very server (the playground's own page calling /execute). */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
}

function splitHostPort(value: string): { name: string; port: number | undefined } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return undefined;
  return { name: match[1] as string, port: match[2] === undefined ? undefined : Number(match[2]) };
}
