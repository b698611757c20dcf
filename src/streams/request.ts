// Reading streams-API requests (query flags, bodies) and answering failures with the right status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tryParseDurationMs } from '../config/duration.js';
import { ConfigError } from '../engine/errors.js';
import { readBody } from '../listener/body.js';
import { HttpError } from '../listener/http_error.js';
import { sendError, sendJson } from '../listener/respond.js';
import {
  BadRequestError,
  LintFailure,
  ManagerClosedError,
  StreamBuildError,
  StreamExistsError,
  StreamNotFoundError,
  StreamNotRunningError,
} from './errors.js';

/**
 * 1 MiB: parsing, linting and building a config runs on the event loop (~5 ms per KiB of mapping-
 * heavy YAML or JSON measured), so a 10 MiB body stalled the process for seconds; the server's
 * `http.max_body_size` caps this further.
 */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export function queryOf(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}

/** `?chilled=true`, exactly (case-sensitive, as the reference). */
export function isChilled(query: URLSearchParams): boolean {
  return query.get('chilled') === 'true';
}

/** `?timeout=<Go duration>` in ms; absent or unparsable → undefined (ignored, §3.4); negative → 0. */
export function stopTimeoutOf(query: URLSearchParams): number | undefined {
  const text = query.get('timeout');
  if (text === null) return undefined;
  const ms = tryParseDurationMs(text);
  return ms === undefined ? undefined : Math.max(0, ms);
}

export async function readText(req: IncomingMessage, limitBytes: number): Promise<string> {
  const body = await readBody(req, limitBytes);
  return body.toString('utf8');
}

export function sendLints(res: ServerResponse, lints: string[]): void {
  sendJson(res, 400, { linting_errors: lints });
}

/** 200 with an empty body: what every successful mutation answers. */
export function sendOk(res: ServerResponse): void {
  res.statusCode = 200;
  res.end();
}

export function sendVerbNotSupported(res: ServerResponse, method: string | undefined): void {
  sendError(res, 400, `Error: verb not supported: ${method ?? ''}`);
}

/** Anything that goes wrong while reading a request body is the request's problem (400). */
export function asBadRequest(err: unknown): Error {
  if (err instanceof HttpError || err instanceof LintFailure || err instanceof BadRequestError) return err;
  return new BadRequestError(err instanceof Error ? err.message : String(err));
}

/** Maps a failure to the spec's status and body; never throws. */
export function sendFailure(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof LintFailure) sendLints(res, err.lints);
  else if (err instanceof HttpError) {
    if (err.status === 413) res.setHeader('Connection', 'close');
    sendError(res, err.status, err.status === 413 ? err.message : `Error: ${err.message}`);
  } else if (err instanceof StreamNotFoundError) sendError(res, 404, err.message);
  else if (err instanceof StreamExistsError) sendError(res, 400, err.message);
  else if (err instanceof StreamNotRunningError) sendError(res, 409, `Error: ${err.message}`);
  else if (err instanceof BadRequestError || err instanceof ConfigError)
    sendError(res, 400, `Error: ${err.message}`);
  else if (err instanceof ManagerClosedError || err instanceof StreamBuildError)
    sendError(res, 502, `Error: ${err.message}`);
  else sendError(res, 502, `Error: ${err instanceof Error ? err.message : String(err)}`);
}
