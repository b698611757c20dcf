// `nekton create [--small] [inputs/processors/outputs]`: a new config on stdout, each component
// with its defaults (the reference's `create`). The expression is three comma-separated lists,
// e.g. `stdin/mapping,log/stdout`; several inputs (or outputs) go under a `broker`. `--small`
// prints only the stream sections and leaves out advanced fields.
import { registry } from '../components/registry.js';
import { schemaProvider } from '../config/schema.js';
import { SERVICE_FIELDS, streamFields } from '../config/service_spec.js';
import type { ComponentKind } from '../config/spec.js';
import { withDefaults } from '../config/with_defaults.js';
import { toYaml } from './echo_command.js';

type PlainObject = Record<string, unknown>;

export function createConfig(expression: string | undefined, small: boolean): number {
  let conf: PlainObject;
  try {
    conf = skeletonFor(expression ?? '');
  } catch (err) {
    process.stderr.write(`generate error: ${(err as Error).message}\n`);
    return 1;
  }
  const filled = withDefaults(small ? streamFields() : SERVICE_FIELDS, conf, {
    provider: schemaProvider(registry),
    omit: small ? (spec) => spec.advanced === true : undefined,
    examples: true,
    labels: true,
  });
  process.stdout.write(toYaml(filled));
  return 0;
}

/** `stdin/mapping,log/stdout` -> the stream sections naming those components. */
export function skeletonFor(expression: string): PlainObject {
  const conf: PlainObject = { input: { stdin: {} }, pipeline: { processors: [] }, output: { stdout: {} } };
  const lists = expression.split('/');
  if (lists.length > 3) throw new Error('more component separators than expected');
  const [inputs, processors, outputs] = lists.map((list) =>
    list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
  if (inputs?.length) conf.input = oneOrBroker('input', inputs, 'inputs');
  if (processors?.length)
    conf.pipeline = { processors: processors.map((name) => component('processor', name)) };
  if (outputs?.length) conf.output = oneOrBroker('output', outputs, 'outputs');
  return conf;
}

function oneOrBroker(kind: ComponentKind, names: string[], listKey: string): PlainObject {
  if (names.length === 1) return component(kind, names[0]!);
  return { broker: { [listKey]: names.map((name) => component(kind, name)) } };
}

function component(kind: ComponentKind, name: string): PlainObject {
  if (!registry.get(kind, name)) throw new Error(`unrecognised ${kind} type '${name}'`);
  // Settings left out (not `{}`): a component whose settings are one value gets its default or example.
  return { type: name };
}
