// `jmespath`: replaces each JSON message with the result of a JMESPath query on it.
import type { compile, JSONValue } from '@jmespath-community/jmespath';
import { jmespathNow } from '../../base/lazy_packages.js';
import { defineComponent, field } from '../../config/spec.js';
import type { Processor } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { perMessage, processorErrorLog } from '../../engine/processor_helpers.js';
import { JsonNumber } from '../../message/value.js';
import { setJsonResult } from './jq.js';

type Compiled = ReturnType<typeof compile>;

/** Compiles a query; the error reads as the reference's. */
export function compileQuery(query: string): Compiled {
  try {
    return jmespathNow().compile(query);
  } catch (err) {
    throw new ConfigError(`failed to compile JMESPath query: ${errorMessage(err)}`);
  }
}

/** JMESPath works on plain JSON: numbers kept as text or bigints become float64s, as the reference's clearNumbers. */
function plainNumbers(v: unknown): unknown {
  if (v instanceof JsonNumber) return v.toNumber();
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const n = plainNumbers(v[i]);
      if (n !== v[i]) {
        out ??= v.slice();
        out[i] = n;
      }
    }
    return out ?? v;
  }
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    let out: Record<string, unknown> | null = null;
    for (const [k, item] of Object.entries(v)) {
      const n = plainNumbers(item);
      if (n !== item) {
        out ??= { ...(v as Record<string, unknown>) };
        out[k] = n;
      }
    }
    return out ?? v;
  }
  return v;
}

export const spec = defineComponent({
  name: 'jmespath',
  kind: 'processor',
  status: 'stable',
  categories: ['Mapping'],
  summary:
    'Executes a [JMESPath query](http://jmespath.org/) on JSON documents and replaces the message with the resulting document.',
  description: `For better performance and improved capabilities try the \`mapping\` processor.

Queries follow the JMESPath Community specification, a superset of the original one (it adds arithmetic, \`let\` and more functions). As in the reference, a backtick literal must be valid JSON (\`\\\`"WA"\\\`\`) and raw strings use single quotes (\`'WA'\`).

A message that is not JSON, or whose query fails at run time (a function given the wrong type), carries on unchanged with its error flag set. A query that does not compile does not lint.`,
  fields: [field.string('query', 'The JMESPath query to apply to messages.')],
  examples: [
    {
      title: 'Mapping',
      config: `input:
  generate:
    count: 1
    mapping: 'root = {"locations": [{"name": "Seattle", "state": "WA"}, {"name": "New York", "state": "NY"}, {"name": "Bellevue", "state": "WA"}, {"name": "Olympia", "state": "WA"}]}'
pipeline:
  processors:
    - jmespath:
        query: "locations[?state == 'WA'].name | sort(@) | {Cities: join(', ', @)}"
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    try {
      compileQuery(config.query);
      return [];
    } catch (err) {
      return [errorMessage(err)];
    }
  },
  build: (config, ctx): Processor => {
    const ast = compileQuery(config.query);
    return {
      process: perMessage(
        (msg) => {
          const doc = plainNumbers(msg.structured());
          const result = jmespathNow().TreeInterpreter.search(ast, doc as JSONValue);
          const out = msg.copy();
          setJsonResult(out, result);
          return out;
        },
        { onError: processorErrorLog(ctx.logger) },
      ),
      close: async () => {},
    };
  },
});
