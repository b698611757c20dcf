// OpenTelemetry's SDK reports failed exports through its global diagnostic logger (silent unless
// set): its warnings and errors go to the service log, so a collector that cannot be reached shows.
import { DiagLogLevel, diag } from '@opentelemetry/api';
import type { Logger } from 'pino';

export function logOtelDiagnostics(logger: Logger | undefined): void {
  if (!logger) return;
  const ignore = () => {};
  diag.setLogger(
    {
      error: (message, ...args) => logger.warn(`opentelemetry: ${[message, ...args.map(String)].join(' ')}`),
      warn: (message, ...args) => logger.warn(`opentelemetry: ${[message, ...args.map(String)].join(' ')}`),
      info: ignore,
      debug: ignore,
      verbose: ignore,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}
