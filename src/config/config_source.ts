// Errors found after a config file was loaded (building components, reading durations) pointed
// back at the file: `FILE(line,col) path: reason`, as syntax and value errors are.

import { ConfigError, FieldValueError } from '../engine/errors.js';
import { parseDurationMs } from './duration.js';
import { type LineIndex, pathKey, type TextPosition } from './yaml_document.js';

/** A loaded config file: its name and the line of each path in it. */
export interface ConfigSource {
  file: string;
  lines: LineIndex;
}

/** Where `field` (`a.b.0.c`) is, or its nearest written parent when the value is a default. */
export function positionOfField(lines: LineIndex, field: string): TextPosition | undefined {
  const segments = field.split('.');
  for (let n = segments.length; n >= 0; n--) {
    const at = lines.get(pathKey(segments.slice(0, n)));
    if (at !== undefined) return at;
  }
  return undefined;
}

/** A placed FieldValueError gets the file and line; any other error is returned as it is. */
export function locateInSource(err: unknown, source: ConfigSource): unknown {
  if (!(err instanceof FieldValueError) || !err.placed) return err;
  const at = positionOfField(source.lines, err.field);
  const where =
    at === undefined ? `${source.file}:` : `${source.file}(${at.origin ?? `${at.line},${at.col}`})`;
  return new ConfigError(`${where} ${err.message}`, at?.line, at?.col, source.file);
}

/** Runs `work`; a field error it throws names the place in `source`. */
export async function inSource<T>(source: ConfigSource, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw locateInSource(err, source);
  }
}

/** inSource for synchronous work (constructors that check their config). */
export function inSourceSync<T>(source: ConfigSource, work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw locateInSource(err, source);
  }
}

/** A root duration field (`shutdown_timeout`) of `source` in milliseconds; a bad value names its line. */
export function rootDurationMs(source: ConfigSource, value: string, field: string): number {
  return inSourceSync(source, () => {
    try {
      return parseDurationMs(value);
    } catch (err) {
      throw new FieldValueError(field, err instanceof Error ? err.message : String(err), true);
    }
  });
}
