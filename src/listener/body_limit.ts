// The largest request body nekton reads over HTTP (`http.max_body_size`). The main server tags
// each request with its limit; every reader of a body (API, dynamic outputs, http_server inputs,
// playground) refuses past it with 413 and keeps nothing beyond it in memory.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http_error.js';

/** 4 MiB, as the reference's only body limit (`otlp_http.max_body_size`). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

const limits = new WeakMap<IncomingMessage, number>();
/** For own-address listeners (http_server inputs), which have no server config of their own. */
let processLimit = DEFAULT_MAX_BODY_BYTES;

export function tagBodyLimit(req: IncomingMessage, bytes: number): void {
  limits.set(req, bytes);
}

/** The limit the request was received under; the process's limit for own-address listeners. */
export function bodyLimitOf(req: IncomingMessage): number {
  return limits.get(req) ?? processLimit;
}

/** Set by the main server: own-address listeners of the same process then use its `http.max_body_size`. */
export function setProcessBodyLimit(bytes: number): void {
  processLimit = bytes;
}

export function bodyTooLarge(limitBytes: number): HttpError {
  return new HttpError(413, `request body exceeds the limit of ${limitBytes} bytes`);
}

/** The declared Content-Length when it is over the limit (refuse before reading a byte). */
export function declaredTooLarge(req: IncomingMessage, limitBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limitBytes;
}
