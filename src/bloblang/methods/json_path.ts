// `json_path`: a JSONPath expression (Goessner's syntax, filters like `[?(@.type=='text')]`) run
// on an object or array, through jsonpath-plus with its safe (non-eval) filter interpreter.
// As in the reference (PaesslerAG/jsonpath), a definite path gives its one value (and fails
// when it is absent) while wildcards, `..`, filters, unions and slices give an array.
import { createRequire } from 'node:module';
import { JsonNumber, Timestamp, type Value } from '../library.js';
import { isObject, typeName, valueToString } from '../value.js';
import { fail, method, p } from './support.js';

const require = createRequire(import.meta.url);
let jsonpath: typeof import('jsonpath-plus') | undefined;

/** Plain JSON-like data to query: number, string and date leaves instead of class instances. */
function plain(v: Value): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof JsonNumber) return v.toNumber();
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint8Array || v instanceof Timestamp) return valueToString(v);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) out[k] = plain(v[k]!);
    return out;
  }
  return v;
}

/** Outside quoted names: `..`, `*`, a filter, or a bracket holding a union or a slice. */
const INDEFINITE = /\.\.|\*|\?\(|\[[^\]'"]*[,:][^\]'"]*\]/;

function isDefinite(path: string): boolean {
  return !INDEFINITE.test(path.replace(/'[^']*'|"[^"]*"/g, "''"));
}

method(
  'json_path',
  [p.str('expression')],
  (target, args) => {
    const expression = args[0] as string;
    if (!isObject(target) && !Array.isArray(target)) {
      if (expression === '$') return target;
      throw fail(
        `unsupported value type ${typeName(target)} for select, expected map[string]interface{} or []interface{}`,
      );
    }
    jsonpath ??= require('jsonpath-plus') as typeof import('jsonpath-plus');
    let results: unknown[];
    try {
      results = jsonpath.JSONPath({
        path: expression,
        json: plain(target) as object,
        wrap: true,
        eval: 'safe',
      });
    } catch (e) {
      throw fail(`evaluating json path expression: ${(e as Error).message}`);
    }
    if (!isDefinite(expression)) return (results ?? []) as Value;
    if (!results || results.length === 0) throw fail(`unknown key in json path ${expression}`);
    return results[0] as Value;
  },
  {
    checkArgs(args) {
      const expression = args[0];
      if (typeof expression === 'string' && !expression.startsWith('$'))
        throw fail(
          `evaluating json path expression: unexpected "${expression[0] ?? ''}" while scanning JSON select expected $`,
        );
    },
  },
);
