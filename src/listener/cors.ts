// The one CORS layer of every listener (the main server and own-address http_server components),
// following gorilla/handlers.CORS, which the reference uses for both.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CorsConfig {
  /** Origins allowed to send requests; `*` allows any. */
  allowed_origins: readonly string[];
}

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
// Request headers a browser may send without them being listed (gorilla's defaults).
const SIMPLE_HEADERS = new Set(['accept', 'accept-language', 'content-language', 'origin']);

/** Returns true when the CORS layer answered the request itself (it must not reach the router). */
export type CorsLayer = (req: IncomingMessage, res: ServerResponse) => boolean;

export function createCorsLayer(config: CorsConfig): CorsLayer {
  const origins = new Set(config.allowed_origins);
  const anyOrigin = origins.has('*');
  const varyByOrigin = origins.size > 1;

  return (req, res) => {
    const origin = req.headers.origin;
    const isOptions = req.method === 'OPTIONS';
    if (origin === undefined || origin === '' || !(anyOrigin || origins.has(origin))) {
      // gorilla swallows every OPTIONS from a foreign (or absent) origin with a bare 200.
      if (isOptions) res.end();
      return isOptions;
    }
    if (isOptions) {
      const method = req.headers['access-control-request-method'];
      if (method === undefined) {
        res.statusCode = 400;
        res.end();
        return true;
      }
      if (!ALLOWED_METHODS.has(method.trim().toUpperCase())) {
        res.statusCode = 405;
        res.end();
        return true;
      }
      // nekton is lenient where gorilla answers 403: every requested header is allowed.
      const requested = requestedHeaders(req.headers['access-control-request-headers']);
      if (requested.length > 0) res.setHeader('Access-Control-Allow-Headers', requested.join(','));
    }
    if (varyByOrigin) res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Allow-Origin', anyOrigin ? '*' : origin);
    if (isOptions) {
      res.statusCode = 200;
      res.end();
      return true;
    }
    return false;
  };
}

function requestedHeaders(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '' && !SIMPLE_HEADERS.has(h.toLowerCase()));
}
