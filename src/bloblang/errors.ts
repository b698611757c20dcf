// Error classes of the Bloblang public API, kept apart so internal modules avoid import cycles.

/** A mapping or interpolation that does not parse; line and column are 1-based within its text. */
export class BloblangParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/** A mapping that failed while running against a message. */
export class MappingError extends Error {}
