// Error values the engine understands.

/** A connector lost (or never had) its connection; the engine reconnects with backoff. */
export class NotConnectedError extends Error {
  constructor(message = 'not connected') {
    super(message);
    this.name = 'NotConnectedError';
  }
}

/** A config that does not lint, convert or build; carries where it went wrong when known. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Deliberately refused by an output (`reject`); the batch is nacked, not retried forever. */
export class RejectedError extends Error {}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The reason every engine AbortController is aborted with. A reason made once: abort() without
 * one builds a DOMException (with its stack) per controller, which showed in the streams-mode
 * create/delete profile.
 */
export const STOPPED = new Error('stopped');

/** `err` as an Error (a thrown string or value gets wrapped). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
