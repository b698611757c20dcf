// The process logger: pino, writing Benthos-style logfmt (default) or JSON lines to stderr, or to
// `logger.file` (rotated when asked).
import { type Logger, type LoggerOptions, pino } from 'pino';
import { scrubSecretText } from '../config/secret_text.js';
import { ConfigError, errorMessage } from './errors.js';
import { type LineSink, type LogFileConfig, openLogFile } from './log_file.js';
import { PINO_LEVELS } from './log_levels.js';

export interface LoggerConfig {
  level: string;
  format: string;
  add_timestamp: boolean;
  static_fields: Record<string, string>;
  timestamp_name?: string;
  message_name?: string;
  level_name?: string;
  /** A non-empty path writes the log there instead of stderr. */
  file?: LogFileConfig;
}

/** One line as the logger wrote it: its level (`info`...), message and other fields. */
export interface LogEntry {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

/** Sees every line the logger writes (after its level filter); `line` may be set after creation. */
export interface LogTap {
  line?: (entry: LogEntry) => void;
}

export const DEFAULT_LOGGER_CONFIG: LoggerConfig = {
  level: 'INFO',
  format: 'logfmt',
  add_timestamp: false,
  static_fields: { '@service': 'nekton' },
};

export function pinoLevel(level: string): string {
  return PINO_LEVELS[level.toLowerCase()] ?? 'info';
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

function logfmtValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s"=\\]+$/.test(text) ? text : JSON.stringify(text);
}

const SKIPPED = new Set(['time', 'level', 'msg', 'pid', 'hostname']);

/** Hands a written line (as pino serialised it) to the tap, if it wants lines. */
function tapLine(
  tap: LogTap | undefined,
  record: Record<string, unknown>,
  names: { time: string; msg: string; level: string },
) {
  if (!tap?.line) return;
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (!SKIPPED.has(key) && key !== names.msg && key !== names.level && key !== names.time)
      fields[key] = value;
  }
  const level = record[names.level] ?? record.level;
  tap.line({
    level: typeof level === 'number' ? (LEVEL_NAMES[level] ?? String(level)) : String(level),
    message: String(record[names.msg] ?? record.msg ?? ''),
    fields,
  });
}

/** A pino destination that rewrites each JSON line as logfmt. */
function logfmtStream(out: LineSink, names: { time: string; msg: string; level: string }, tap?: LogTap) {
  return {
    write(line: string): void {
      const record = JSON.parse(line) as Record<string, unknown>;
      tapLine(tap, record, { time: 'time', msg: 'msg', level: 'level' });
      const parts: string[] = [];
      if (record.time !== undefined) parts.push(`${names.time}=${logfmtValue(record.time)}`);
      parts.push(`${names.level}=${LEVEL_NAMES[record.level as number] ?? record.level}`);
      parts.push(`${names.msg}=${logfmtValue(record.msg ?? '')}`);
      for (const [key, value] of Object.entries(record)) {
        if (key === 'time' || key === 'level' || key === 'msg' || key === 'pid' || key === 'hostname')
          continue;
        parts.push(`${key}=${logfmtValue(value)}`);
      }
      out.write(`${parts.join(' ')}\n`);
    },
  };
}

function openFileOrRefuse(file: LogFileConfig): LineSink {
  try {
    return openLogFile(file);
  } catch (err) {
    throw new ConfigError(`logger.file.path: cannot write to ${file.path}: ${errorMessage(err)}`);
  }
}

/** Throws when `file.path` cannot be opened for writing. */
export function createLogger(
  config: Partial<LoggerConfig> = {},
  stderr: LineSink = process.stderr,
  tap?: LogTap,
): Logger {
  const merged = { ...DEFAULT_LOGGER_CONFIG, ...config };
  const out = merged.file?.path ? openFileOrRefuse(merged.file) : stderr;
  const names = {
    time: merged.timestamp_name ?? 'time',
    msg: merged.message_name ?? 'msg',
    level: merged.level_name ?? 'level',
  };
  const json = merged.format === 'json';
  // logfmt renames `time` as it writes; JSON lines carry the configured name from the start.
  const timeKey = json ? names.time : 'time';
  const options: LoggerOptions = {
    level: pinoLevel(merged.level),
    base: { ...merged.static_fields },
    timestamp: merged.add_timestamp
      ? () => `,${JSON.stringify(timeKey)}:"${new Date().toISOString()}"`
      : false,
    // A connector error can quote a URL or DSN with its password: no log line carries one.
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubSecretText(a) : a)) as typeof args);
      },
    },
  };
  if (json) {
    options.messageKey = names.msg;
    options.formatters = { level: (label) => ({ [names.level]: label }) };
    const dest = out === process.stderr ? pino.destination({ dest: 2, sync: true }) : out;
    if (!tap) return pino(options, dest);
    return pino(options, {
      write(line: string): void {
        dest.write(line);
        if (tap.line) tapLine(tap, JSON.parse(line) as Record<string, unknown>, names);
      },
    });
  }
  return pino(options, logfmtStream(out, names, tap));
}
