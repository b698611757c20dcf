// Hands a request to the fleet node that runs its stream and relays the answer: same method, path,
// headers (so basic auth is checked there too) and body. A forwarded request carries
// `X-Nekton-Forwarded-By`, and a node never forwards such a request again, so two nodes with
// different views of who owns what cannot bounce a request between them.
import { type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { errorMessage } from '../../engine/errors.js';
import { sendError } from '../../listener/respond.js';
import type { FleetNode } from './lease_store.js';

export const FORWARDED_HEADER = 'x-nekton-forwarded-by';
const FORWARD_TIMEOUT_MS = 30_000;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
]);

export function isForwarded(req: IncomingMessage): boolean {
  return req.headers[FORWARDED_HEADER] !== undefined;
}

function forwardHeaders(
  headers: IncomingHttpHeaders,
  from: string,
  target: FleetNode,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  }
  out.host = target.address;
  out[FORWARDED_HEADER] = from;
  return out;
}

/** Streams the request to `target` and its answer back; a node that cannot be reached is a 502. */
export function forwardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  from: string,
  target: FleetNode,
): Promise<void> {
  return new Promise<void>((resolve) => {
    const [host, port] = splitAddress(target.address);
    const upstream = request(
      {
        host,
        port,
        method: req.method,
        path: req.url,
        headers: forwardHeaders(req.headers, from, target),
        timeout: FORWARD_TIMEOUT_MS,
      },
      (answer) => {
        res.statusCode = answer.statusCode ?? 502;
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
        }
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', () => {
          res.destroy();
          resolve();
        });
      },
    );
    const fail = (err: unknown) => {
      if (!res.headersSent)
        sendError(
          res,
          502,
          `Error: fleet node ${target.id} (${target.address}) did not answer: ${errorMessage(err)}`,
        );
      else res.destroy();
      resolve();
    };
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', fail);
    req.on('error', (err) => upstream.destroy(err));
    req.pipe(upstream);
  });
}

/** One GET to another node for its own view (`/streams`, `/ready`): status and body, or the reason it failed. */
export function askNode(
  target: FleetNode,
  path: string,
  from: string,
  headers: IncomingHttpHeaders,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const [host, port] = splitAddress(target.address);
    const req = request(
      {
        host,
        port,
        method: 'GET',
        path,
        headers: forwardHeaders(pick(headers, ['authorization']), from, target),
        timeout: 5_000,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        answer.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

function pick(headers: IncomingHttpHeaders, names: string[]): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

function splitAddress(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return [host, Number(address.slice(at + 1))];
}
