// The output conditions of a test case: each checks one output message and returns why it failed
// (with a diff where one helps), or undefined. Names and messages follow the reference.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { type Mapping, parseMapping } from '../../bloblang/index.js';
import { compileSchema } from '../../components/processors/json_schema.js';
import { describeErrors } from '../../components/processors/json_schema_errors.js';
import { errorMessage } from '../../engine/errors.js';
import type { Message } from '../../message/message.js';
import { compilePattern } from '../../regexp/index.js';
import { canonicalJson, jsonContains, jsonEqual, looseEqual, projectOnto } from './json_compare.js';
import type { Style } from './style.js';
import { lineDiff } from './text_diff.js';

export interface Condition {
  name: string;
  /** The failure, or undefined when the message satisfies the condition. */
  check(msg: Message): string | undefined;
}

type ConditionFactory = (value: unknown, dir: string, style: Style) => Condition['check'];

const FACTORIES: Record<string, ConditionFactory> = {
  bloblang: (value) => bloblangCheck(parseMapping(text(value, 'bloblang'))),
  content_equals: (value, _dir, style) => contentEquals(() => text(value, 'content_equals'), style),
  content_matches: (value, _dir, style) => contentMatches(text(value, 'content_matches'), style),
  metadata_equals: (value, _dir, style) => metadataEquals(value, style),
  json_equals: (value, _dir, style) => jsonCheck(() => expectedJson(value), 'equals', style),
  json_contains: (value, _dir, style) => jsonCheck(() => expectedJson(value), 'contains', style),
  json_schema: (value) => jsonSchema(value),
  file_equals: (value, dir, style) =>
    contentEquals(() => readRelative(dir, text(value, 'file_equals'), 'comparison file'), style),
  file_json_equals: (value, dir, style) =>
    jsonCheck(
      () => parseExpected(readRelative(dir, text(value, 'file_json_equals'), 'comparison JSON file')),
      'equals',
      style,
    ),
  file_json_contains: (value, dir, style) =>
    jsonCheck(
      () => parseExpected(readRelative(dir, text(value, 'file_json_contains'), 'comparison JSON file')),
      'contains',
      style,
    ),
};

export const CONDITION_NAMES = Object.keys(FACTORIES);

/** The conditions of one expected message, sorted by name as the reference runs them. */
export function buildConditions(spec: Record<string, unknown>, dir: string, style: Style): Condition[] {
  return Object.keys(spec)
    .sort()
    .map((name) => {
      const factory = FACTORIES[name];
      if (!factory)
        throw new Error(`unknown output condition '${name}': expected one of ${CONDITION_NAMES.join(', ')}`);
      try {
        return { name, check: factory(spec[name], dir, style) };
      } catch (err) {
        throw new Error(`${name}: ${errorMessage(err)}`);
      }
    });
}

function text(value: unknown, name: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  throw new Error(`${name} expects a string, got ${value === null ? 'null' : typeof value}`);
}

function readRelative(dir: string, path: string, what: string): string {
  try {
    return readFileSync(isAbsolute(path) ? path : join(dir, path), 'utf8');
  } catch (err) {
    throw new Error(`failed to read ${what}: ${errorMessage(err)}`);
  }
}

function bloblangCheck(mapping: Mapping): Condition['check'] {
  return (msg) => {
    let result: unknown;
    try {
      result = mapping.query([msg], 0);
    } catch (err) {
      return errorMessage(err);
    }
    if (result === true) return undefined;
    if (result === false) return 'bloblang expression was false';
    return `expected bool value, got ${describeValue(result)}`;
  };
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return `string ("${value}")`;
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `read` runs per check: a missing comparison file fails the check, not the whole case. */
function contentEquals(read: () => string, style: Style): Condition['check'] {
  return (msg) => {
    let expected: string;
    try {
      expected = read();
    } catch (err) {
      return errorMessage(err);
    }
    const received = msg.text();
    if (expected === received) return undefined;
    const lines = `content mismatch\n  expected: ${style.blue(expected)}\n  received: ${style.red(received)}`;
    // Text that differs only in trailing whitespace reads the same: show it escaped instead.
    if (expected.trimEnd() === received.trimEnd()) {
      return `${lines}\n  (they differ in trailing whitespace: expected ${JSON.stringify(expected)}, received ${JSON.stringify(received)})`;
    }
    return expected.includes('\n') || received.includes('\n')
      ? `${lines}\n${lineDiff(expected, received, style)}`
      : lines;
  };
}

function contentMatches(pattern: string, style: Style): Condition['check'] {
  const re = compilePattern(pattern);
  return (msg) => {
    const received = msg.text();
    if (re.test(received)) return undefined;
    return `pattern mismatch\n   pattern: ${style.blue(pattern)}\n  received: ${style.red(received)}`;
  };
}

function metadataEquals(value: unknown, style: Style): Condition['check'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('metadata_equals expects an object of keys to values');
  }
  const expected = value as Record<string, unknown>;
  return (msg) => {
    for (const [key, want] of Object.entries(expected)) {
      if (!msg.metadata().has(key)) return `metadata key '${key}' expected but not found`;
      const got = msg.getMeta(key);
      if (!looseEqual(got, want)) {
        return `metadata key '${key}' mismatch\n  expected: ${style.blue(show(want))}\n  received: ${style.red(show(got))}`;
      }
    }
    return undefined;
  };
}

function show(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A condition written as a string is JSON text; anything else is the document itself. */
function expectedJson(value: unknown): unknown {
  return typeof value === 'string' ? parseExpected(value) : value;
}

function parseExpected(textValue: string): unknown {
  try {
    return JSON.parse(textValue);
  } catch (err) {
    throw new Error(`the expected value is not valid JSON: ${errorMessage(err)}`);
  }
}

function jsonCheck(expectedOf: () => unknown, mode: 'equals' | 'contains', style: Style): Condition['check'] {
  return (msg) => {
    let expected: unknown;
    try {
      expected = expectedOf();
    } catch (err) {
      return errorMessage(err);
    }
    let actual: unknown;
    try {
      actual = JSON.parse(msg.text());
    } catch (err) {
      return `message is not valid JSON (${errorMessage(err)})\n  received: ${style.red(msg.text())}`;
    }
    const ok = mode === 'equals' ? jsonEqual(actual, expected) : jsonContains(actual, expected);
    if (ok) return undefined;
    const shown = mode === 'equals' ? actual : projectOnto(actual, expected);
    const title = mode === 'equals' ? 'JSON content mismatch' : 'JSON superset mismatch';
    return `${title}\n${lineDiff(canonicalJson(expected), canonicalJson(shown), style)}`;
  };
}

/** nekton's own condition: the message must be JSON valid against a schema (object or JSON text). */
function jsonSchema(value: unknown): Condition['check'] {
  const validate = compileSchema(typeof value === 'string' ? value : JSON.stringify(value));
  return (msg) => {
    let actual: unknown;
    try {
      actual = JSON.parse(msg.text());
    } catch (err) {
      return `message is not valid JSON (${errorMessage(err)})`;
    }
    if (validate(actual)) return undefined;
    return `JSON schema mismatch: ${describeErrors(validate.errors ?? [])}`;
  };
}
