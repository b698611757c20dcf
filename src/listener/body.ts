// The one request body reader of every listener, always under a limit (413 past it, nothing past
// it kept in memory). The callback form serves the http_server input's hot path (a promise per
// request costs an allocation and a microtask); readBody wraps it for every other handler.
import type { IncomingMessage } from 'node:http';
import { bodyLimitOf, bodyTooLarge, declaredTooLarge } from './body_limit.js';
import { HttpError } from './http_error.js';

const EMPTY = Buffer.alloc(0);

/**
 * The whole body when it has arrived and waits in the request's buffer (nobody listened yet),
 * read at once; undefined while more is to come (or the request broke off: see readWholeBody).
 */
export function arrivedBody(req: IncomingMessage): Buffer | undefined {
  // Already drained by someone else.
  if (req.readableEnded) return EMPTY;
  if (!req.complete || req.destroyed) return undefined;
  // Everything buffered, as one Buffer (null when the body is empty).
  return (req.read() as Buffer | null) ?? EMPTY;
}

/**
 * Calls `done` with the whole body, or `failed` when the request breaks off first (the client
 * left, or the body was malformed). At most one of them is called, once.
 */
export function readWholeBody(
  req: IncomingMessage,
  limitBytes: number,
  done: (body: Buffer) => void,
  failed: (err: Error) => void,
): void {
  // Already drained by someone else: waiting for 'end' would hang forever.
  if (req.readableEnded) {
    done(EMPTY);
    return;
  }
  // Gone before we listened: 'close' has fired already, so waiting would hang too.
  if (req.destroyed) {
    failed(new Error('client closed the connection'));
    return;
  }
  // Most bodies arrive in one chunk: no array for them.
  let first: Buffer | null = null;
  let more: Buffer[] | null = null;
  let size = 0;
  let finished = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) {
      // Keep nothing more: drop what was kept, let the rest flow past unread, answer 413.
      req.off('data', onData);
      first = null;
      more = null;
      finished = true;
      failed(bodyTooLarge(limitBytes));
      return;
    }
    if (first === null) first = chunk;
    else if (more === null) more = [first, chunk];
    else more.push(chunk);
  };
  req.on('data', onData);
  req.on('end', () => {
    if (finished) return;
    finished = true;
    done(more !== null ? Buffer.concat(more, size) : (first ?? EMPTY));
  });
  // A request that breaks off emits 'error' (ECONNRESET "aborted") as it has a listener, so no
  // 'close' listener is needed; an error after 'end' is not this request's any more.
  req.on('error', (err: Error) => {
    if (finished) return;
    finished = true;
    failed(err);
  });
}

/**
 * Reads the whole request body, refusing (413) as soon as it would exceed `ownLimitBytes` or the
 * server's `http.max_body_size`, whichever is lower; a broken-off request is a 400.
 */
export function readBody(req: IncomingMessage, ownLimitBytes: number): Promise<Buffer> {
  const limitBytes = Math.min(ownLimitBytes, bodyLimitOf(req));
  if (declaredTooLarge(req, limitBytes)) {
    req.resume(); // discard rather than leave the socket stalled
    return Promise.reject(bodyTooLarge(limitBytes));
  }
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      if (err instanceof HttpError) {
        req.resume(); // let the rest flow past unread
        reject(err);
      } else reject(new HttpError(400, `reading request body: ${err.message}`));
    };
    // A client that leaves before the end may close without an 'error' on some paths.
    const onClose = () => {
      if (!req.complete) fail(new Error('client closed the connection'));
    };
    readWholeBody(
      req,
      limitBytes,
      (body) => {
        settled = true;
        req.off('close', onClose);
        resolve(body);
      },
      fail,
    );
    if (!settled) req.on('close', onClose);
  });
}
