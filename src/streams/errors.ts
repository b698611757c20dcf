// Failures of stream-manager operations; the REST layer maps each class to its status code.

/** The id is unknown: 404 `Stream not found`. */
export class StreamNotFoundError extends Error {
  constructor(readonly id: string) {
    super('Stream not found');
    this.name = 'StreamNotFoundError';
  }
}

/** Create of an id that exists: 400 `Stream already exists`. */
export class StreamExistsError extends Error {
  constructor(readonly id: string) {
    super('Stream already exists');
    this.name = 'StreamExistsError';
  }
}

/** Pause or resume of a stream that has finished: 409. */
export class StreamNotRunningError extends Error {
  constructor(readonly id: string) {
    super(`stream '${id}' has finished: there is nothing to pause or resume`);
    this.name = 'StreamNotRunningError';
  }
}

/** The manager was shut down: 502 `Error: type was closed` (the reference's wording). */
export class ManagerClosedError extends Error {
  constructor() {
    super('type was closed');
    this.name = 'ManagerClosedError';
  }
}

/** A stream (or resource) could not be built or started: 502 `Error: <detail>`. */
export class StreamBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamBuildError';
  }
}

/** The request itself is wrong (bad id, non-object body...): 400 `Error: <detail>`. */
export class BadRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadRequestError';
  }
}

/** A config that did not pass the lint gate: 400 `{"linting_errors": [...]}`. */
export class LintFailure extends Error {
  constructor(readonly lints: string[]) {
    super(lints.join('\n'));
    this.name = 'LintFailure';
  }
}

/**
 * The new config of an update built but did not start (its listener's address is taken, its first
 * connect failed): the previous config runs again, and the client hears why (400).
 */
export class StreamStartError extends BadRequestError {
  constructor(message: string) {
    super(message);
    this.name = 'StreamStartError';
  }
}
