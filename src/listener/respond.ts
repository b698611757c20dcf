// The one error writer (and its plain-text and JSON siblings) for every listener: the main server,
// own-address http_server components and websockets answer errors alike (Go's http.Error).
import type { ServerResponse } from 'node:http';

export function sendText(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(body);
}

/** Compact JSON, no trailing newline (what Go's json.Marshal + Write produces). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(value));
}

/**
 * Go's http.Error: plain text, nosniff, the message and exactly one newline. A response already
 * under way cannot change its status any more: it is just ended.
 */
export function sendError(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  // A length set for the body that was meant to go out is wrong now (Go deletes it too). Removed
  // only when present: removing it unconditionally would stop Node from setting the right one.
  if (res.hasHeader('Content-Length')) res.removeHeader('Content-Length');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}
