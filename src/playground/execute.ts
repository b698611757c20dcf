// One playground run: parse the mapping, apply it to the input document with its metadata, and
// describe the outcome as data for the page. Never throws: every failure becomes a field.
import { BloblangParseError, parseMapping } from '../bloblang/index.js';
import { errorMessage } from '../engine/errors.js';
import { parseJson } from '../message/json.js';
import { Message } from '../message/message.js';

export interface ExecuteRequest {
  mapping: string;
  input: string;
  /** A JSON object, or its text (what the page sends, so big integers keep their precision). */
  metadata?: Record<string, unknown> | string;
}

export interface ParseErrorInfo {
  line: number;
  column: number;
  message: string;
}

export interface ExecuteResponse {
  result?: string;
  metadata?: Record<string, unknown>;
  deleted?: boolean;
  parse_error?: ParseErrorInfo;
  exec_error?: string;
  /** The metadata pane does not hold a JSON object. */
  metadata_error?: string;
}

export function executeMapping(request: ExecuteRequest): ExecuteResponse {
  let meta: Map<string, unknown>;
  try {
    meta = metadataOf(request.metadata);
  } catch (err) {
    return { metadata_error: errorMessage(err) };
  }

  let mapping: ReturnType<typeof parseMapping>;
  try {
    mapping = parseMapping(request.mapping);
  } catch (err) {
    if (err instanceof BloblangParseError) {
      return { parse_error: { line: err.line, column: err.column, message: err.message } };
    }
    return { parse_error: { line: 0, column: 0, message: errorMessage(err) } };
  }

  try {
    const out = mapping.apply([new Message(request.input, meta)], 0);
    if (out === null) return { deleted: true };
    // Read both now so a value that cannot be serialised is reported as an execution error.
    return { result: out.text(), metadata: Object.fromEntries(out.metadata()) };
  } catch (err) {
    return { exec_error: errorMessage(err) };
  }
}

function metadataOf(source: ExecuteRequest['metadata']): Map<string, unknown> {
  if (source === undefined) return new Map();
  let value: unknown = source;
  if (typeof source === 'string') {
    if (source.trim() === '') return new Map();
    try {
      value = parseJson(source);
    } catch (err) {
      throw new Error(`metadata is not valid JSON: ${errorMessage(err)}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('metadata must be a JSON object');
  }
  return new Map(Object.entries(value));
}
