// A `tests:` section (in a config or a `*_benthos_test.yaml` file) -> typed test cases, each
// with the line it starts on, as the reference reads them.
import { isPlainObject } from '../../config/normalise.js';
import { buildLineIndex, parseYaml, pathKey, yamlToValue } from '../../config/yaml_document.js';
import { clipFinalBlockScalar } from './final_block_scalar.js';

/** One message to feed in: its content (from `content`, `json_content` or a file) and metadata. */
export interface InputMessageSpec {
  content: string;
  /** `file_content`: read relative to the definition's directory. */
  file?: string;
  metadata: Record<string, unknown>;
}

export interface TestCase {
  name: string;
  /** 1-based line of the case in its definition file (0 when unknown). */
  line: number;
  /** Variables set while the case is built and run; absent when the case sets none. */
  environment?: Record<string, string>;
  targetProcessors: string;
  targetMapping: string;
  mocks: Record<string, unknown>;
  inputBatches: InputMessageSpec[][];
  /** One map of condition name -> its value per expected message. */
  outputBatches: Record<string, unknown>[][];
}

const CASE_FIELDS = new Set([
  'name',
  'environment',
  'target_processors',
  'target_mapping',
  'mocks',
  'input_batch',
  'input_batches',
  'output_batches',
]);

/** The cases in a definition file's text; an Error names the case and field that are wrong. */
export function parseTestCases(text: string, file: string): TestCase[] {
  const parsed = parseYaml(text, file);
  clipFinalBlockScalar(parsed, text);
  const root = yamlToValue(parsed);
  if (root === null || root === undefined) return [];
  if (!isPlainObject(root)) throw new Error('expected the document to be an object');
  const tests = root.tests;
  if (tests === undefined || tests === null) return [];
  if (!Array.isArray(tests)) throw new Error('field tests: expected an array');
  const lines = buildLineIndex(parsed);
  return tests.map((value, i) => {
    try {
      return parseCase(value, lines.get(pathKey(['tests', i]))?.line ?? 0);
    } catch (err) {
      throw new Error(`tests.${i}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}

function parseCase(value: unknown, line: number): TestCase {
  if (!isPlainObject(value)) throw new Error('expected an object');
  for (const key of Object.keys(value)) {
    if (!CASE_FIELDS.has(key)) throw new Error(`field ${key} not recognised`);
  }
  const inputBatches = optionalList(value, 'input_batches').map((batch, i) =>
    list(batch, `input_batches.${i}`).map((m, j) => inputMessage(m, `input_batches.${i}.${j}`)),
  );
  // As in the reference, `input_batch` comes after any `input_batches`.
  const single = optionalList(value, 'input_batch').map((m, j) => inputMessage(m, `input_batch.${j}`));
  if (single.length > 0) inputBatches.push(single);
  return {
    name: optionalString(value, 'name', ''),
    line,
    environment: value.environment == null ? undefined : stringMap(value.environment, 'environment'),
    targetProcessors: optionalString(value, 'target_processors', '/pipeline/processors'),
    targetMapping: optionalString(value, 'target_mapping', ''),
    mocks: value.mocks == null ? {} : objectOf(value.mocks, 'mocks'),
    inputBatches,
    outputBatches: optionalList(value, 'output_batches').map((batch, i) =>
      list(batch, `output_batches.${i}`).map((c, j) => objectOf(c, `output_batches.${i}.${j}`)),
    ),
  };
}

function inputMessage(value: unknown, where: string): InputMessageSpec {
  const spec = objectOf(value, where);
  let content = '';
  if (spec.content !== undefined && spec.content !== null)
    content = scalarText(spec.content, `${where}.content`);
  if (spec.json_content !== undefined) content = JSON.stringify(spec.json_content);
  const file = spec.file_content == null ? undefined : scalarText(spec.file_content, `${where}.file_content`);
  const metadata = spec.metadata == null ? {} : objectOf(spec.metadata, `${where}.metadata`);
  return { content, file, metadata };
}

function optionalString(obj: Record<string, unknown>, key: string, fallback: string): string {
  const v = obj[key];
  return v === undefined || v === null ? fallback : scalarText(v, key);
}

/** A YAML scalar as the text a Go string field would hold (`1` -> "1"). */
function scalarText(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  throw new Error(`field ${where}: expected a string`);
}

function stringMap(value: unknown, where: string): Record<string, string> {
  const obj = objectOf(value, where);
  return Object.fromEntries(
    Object.entries(obj).map(([k, v]) => [k, v === null ? '' : scalarText(v, `${where}.${k}`)]),
  );
}

function objectOf(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new Error(`field ${where}: expected an object`);
  return value;
}

function optionalList(obj: Record<string, unknown>, key: string): unknown[] {
  const v = obj[key];
  return v === undefined || v === null ? [] : list(v, key);
}

function list(value: unknown, where: string): unknown[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw new Error(`field ${where}: expected an array`);
  return value;
}
