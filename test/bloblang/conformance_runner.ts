// Runs one conformance case the way the data set's README describes; shared by the test and
// by report mode (BLOBLANG_REPORT=1).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  BloblangParseError,
  type Mapping,
  parseInterpolation,
  parseMapping,
} from '../../src/bloblang/index.js';
import { Message } from '../../src/message/message.js';

export interface Case {
  id: string;
  mapping?: string;
  interpolation?: string;
  input: string;
  input_metadata?: Record<string, unknown>;
  input_error?: string;
  batch?: Array<{ content: string; metadata?: Record<string, unknown>; error?: string }>;
  batch_index?: number;
  output?: string;
  output_metadata?: Record<string, unknown>;
  error?: string;
  error_stage?: 'parse' | 'exec' | 'any';
  error_exact?: boolean;
  deleted?: boolean;
  group?: string;
  step?: number;
  skip_reason?: string;
}

export interface Outcome {
  pass: boolean;
  detail: string;
}

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'bloblang');

export function fixturePath(name: string): string {
  return join(fixtures, name);
}

export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as T;
}

function makeMessage(content: string, metadata?: Record<string, unknown>, error?: string): Message {
  const msg = new Message(content, metadata ? new Map(Object.entries(metadata)) : undefined);
  if (error !== undefined) msg.error = new Error(error);
  return msg;
}

function buildBatch(c: Case): { batch: Message[]; index: number } {
  if (c.batch) {
    return {
      batch: c.batch.map((m) => makeMessage(m.content, m.metadata, m.error)),
      index: c.batch_index ?? 0,
    };
  }
  return { batch: [makeMessage(c.input, c.input_metadata, c.input_error)], index: 0 };
}

function sameOutput(actual: string, expected: string): boolean {
  if (actual === expected) return true;
  try {
    return isDeepStrictEqual(JSON.parse(actual), JSON.parse(expected));
  } catch {
    return false;
  }
}

function metaAsJson(msg: Message): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of msg.metadata()) out[k] = v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v;
  return JSON.parse(JSON.stringify(out, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
}

function errorMatches(c: Case, message: string): boolean {
  if (c.error === undefined) return false;
  return c.error_exact ? message === c.error : message.includes(c.error);
}

const groupMappings = new Map<string, Mapping>();

/** Runs a mapping case; `groupKey` scopes the cache of parsed mappings for grouped cases. */
export function runCase(c: Case): Outcome {
  let mapping: Mapping;
  // One parsed mapping per group and mapping text: a group's steps may alternate mappings
  // (count("foo2"), count("bar2")) and each keeps its own state across the steps.
  const groupKey = c.group ? `${c.group}\n${c.mapping ?? ''}` : undefined;
  const cached = groupKey ? groupMappings.get(groupKey) : undefined;
  if (cached) {
    mapping = cached;
  } else {
    try {
      mapping = parseMapping(c.mapping ?? '');
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (c.error !== undefined && c.error_stage !== 'exec' && errorMatches(c, msg))
        return { pass: true, detail: '' };
      return {
        pass: false,
        detail: `parse error: ${msg}${e instanceof BloblangParseError ? '' : ' (not a BloblangParseError)'}`,
      };
    }
    if (groupKey) groupMappings.set(groupKey, mapping);
  }
  const { batch, index } = buildBatch(c);
  let result: Message | null;
  try {
    result = mapping.apply(batch, index);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (c.error !== undefined && c.error_stage !== 'parse' && errorMatches(c, msg))
      return { pass: true, detail: '' };
    return { pass: false, detail: `exec error: ${msg}` };
  }
  if (c.error !== undefined) {
    return {
      pass: false,
      detail: `expected error ${JSON.stringify(c.error)}, got ${result ? JSON.stringify(result.text()) : 'deleted'}`,
    };
  }
  if (c.deleted)
    return result === null ? { pass: true, detail: '' } : { pass: false, detail: 'expected deletion' };
  if (result === null) return { pass: false, detail: 'message was deleted' };
  const text = result.text();
  if (c.output !== undefined && !sameOutput(text, c.output)) {
    return { pass: false, detail: `output ${JSON.stringify(text)}\n   expected ${JSON.stringify(c.output)}` };
  }
  if (c.output_metadata !== undefined) {
    const meta = metaAsJson(result);
    if (!isDeepStrictEqual(meta, c.output_metadata)) {
      return {
        pass: false,
        detail: `metadata ${JSON.stringify(meta)}\n   expected ${JSON.stringify(c.output_metadata)}`,
      };
    }
  }
  return { pass: true, detail: '' };
}

export function runInterpolationCase(c: Case): Outcome {
  let interp: ReturnType<typeof parseInterpolation>;
  try {
    interp = parseInterpolation(c.interpolation ?? '');
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (c.error !== undefined && errorMatches(c, msg)) return { pass: true, detail: '' };
    return { pass: false, detail: `parse error: ${msg}` };
  }
  if (c.error !== undefined) return { pass: false, detail: `expected error ${c.error}` };
  const { batch, index } = buildBatch(c);
  const out = interp.render(batch, index);
  if (out !== c.output)
    return { pass: false, detail: `output ${JSON.stringify(out)}\n   expected ${JSON.stringify(c.output)}` };
  return { pass: true, detail: '' };
}
