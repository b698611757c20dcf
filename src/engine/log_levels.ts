// Log level names as Benthos spells them, and the pino level each one means. Kept apart from the
// logger so the CLI can check `--log.level` without loading pino.

export const PINO_LEVELS: Readonly<Record<string, string>> = {
  off: 'silent',
  none: 'silent',
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  warning: 'warn',
  info: 'info',
  debug: 'debug',
  trace: 'trace',
  all: 'trace',
};

/** The names `logger.level` and `--log.level` accept (any case). */
export const LOG_LEVEL_NAMES: readonly string[] = Object.keys(PINO_LEVELS);

export function isLogLevel(level: string): boolean {
  return Object.hasOwn(PINO_LEVELS, level.toLowerCase());
}
