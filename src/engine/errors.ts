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

/**
 * A field whose value cannot be used (say, not a duration). `field` is relative to its component
 * until the builder places it under the component's path (`placed`), so the message can say where
 * in the config the value sits.
 */
export class FieldValueError extends ConfigError {
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly placed = false,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'FieldValueError';
  }

  /** The same error with `prefix.` before the field; an error already placed stays as it is. */
  under(prefix: string): FieldValueError {
    if (this.placed) return this;
    return new FieldValueError(prefix ? `${prefix}.${this.field}` : this.field, this.reason, true);
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
