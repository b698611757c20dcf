// Walks a YAML document against field specs and reports lints with the reference's messages
// and line numbers. Document order; a missing required field is reported after the walk of
// the object that lacks it, at that object's line.
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  type Pair,
  Scalar,
  type YAMLMap,
} from 'yaml';
import { type BloblangChecker, bloblangChecker } from './bloblang_check.js';
import { durationProblem } from './duration.js';
import { inferComponentType } from './infer_type.js';
import { type Lint, lintAt } from './lint.js';
import { normaliseSettings } from './normalise.js';
import { regexpProblem } from './regexp_check.js';
import {
  type ComponentSchema,
  type ConfigKind,
  configFieldOf,
  isConfigKind,
  type SchemaProvider,
} from './schema.js';
import { setOriginOf } from './set_origins.js';
import { type FieldSpec, isLintRequired, lintText } from './spec.js';
import { canLabel, wrapperFields } from './wrapper_fields.js';
import { lineOf, MAX_ALIAS_COUNT, type ParsedYaml, shortTag } from './yaml_document.js';

export interface LintOptions {
  provider: SchemaProvider;
  /** Defaults to the real Bloblang parser. */
  bloblang?: BloblangChecker;
  /** `lint --deprecated`: a deprecated component or field is a lint. */
  rejectDeprecated?: boolean;
  /** `lint --labels`: a component that can take a label must have one (`resource` excepted). */
  requireLabels?: boolean;
  /**
   * Streams mode: whether the observability config has a `redpanda` section with seed_brokers; a
   * stream config's redpanda_common components are refused without one. Unset: not checked (a
   * whole service config checks its own section).
   */
  redpandaSection?: boolean;
}

const LABEL_PATTERN = /^[a-z0-9_]+$/;

/** One lint run over one config: labels are unique within it. */
/** A component the walk met: its kind and type, the node it was written at and its own settings. */
export interface LintedComponent {
  kind: ConfigKind;
  name: string;
  node: Node;
  settings: Node | null;
}

export class ConfigLinter {
  private readonly lints: Lint[] = [];
  /** Every component met, for checks that need the whole config (see http_attach_lint.ts). */
  readonly components: LintedComponent[] = [];
  private readonly labels = new Map<string, number>();
  private readonly doc: Document;
  private readonly lines: LineCounter;
  private readonly bloblang: BloblangChecker;
  private aliasesResolved = 0;

  constructor(
    parsed: ParsedYaml,
    private readonly options: LintOptions,
  ) {
    this.doc = parsed.doc;
    this.lines = parsed.lines;
    this.bloblang = options.bloblang ?? bloblangChecker;
  }

  get root(): Node | null {
    return (this.doc.contents as Node | null) ?? null;
  }

  result(): Lint[] {
    return this.lints;
  }

  /** Lints an object against a list of fields (a config file's top level, an object field). */
  fields(fields: readonly FieldSpec[], input: Node | null): void {
    const node = this.resolve(input);
    if (node === undefined) return;
    if (!isMap(node)) {
      this.report(node, `expected object value, got ${shortTag(node)}`);
      return;
    }
    const byName = new Map(fields.map((f) => [f.name, f]));
    const seen = new Set<string>();
    const walk = (map: typeof node) => {
      for (const pair of map.items as Pair<Node, Node | null>[]) {
        const key = keyName(pair);
        if (key === '<<' && isAlias(pair.value)) {
          const merged = this.resolve(pair.value);
          if (merged && isMap(merged)) walk(merged);
          continue;
        }
        const spec = byName.get(key);
        if (!spec) {
          if (!isAlias(pair.value)) this.report(pair.key, `field ${key} not recognised`);
          continue;
        }
        if (this.options.rejectDeprecated && spec.deprecated) {
          this.report(pair.value ?? pair.key, `field ${key} is deprecated`);
        }
        this.field(spec, pair.value);
        seen.add(key);
      }
    };
    walk(node);
    for (const spec of fields) {
      if (!seen.has(spec.name) && isLintRequired(spec)) this.report(node, `field ${spec.name} is required`);
    }
  }

  /** Lints one field's value. */
  field(spec: FieldSpec, input: Node | null): void {
    const resolved = this.resolve(input);
    if (resolved === undefined && input) return;
    const node = resolved ?? null;
    this.custom(spec, node);
    switch (spec.kind) {
      case '2darray':
      case 'array': {
        if (!isSeq(node)) {
          this.report(node, 'expected array value');
          return;
        }
        const inner: FieldSpec = { ...spec, kind: spec.kind === '2darray' ? 'array' : 'scalar' };
        for (const item of node.items as (Node | null)[]) this.field(inner, item);
        return;
      }
      case 'map': {
        if (!isMap(node)) {
          this.report(node, `expected object value, got ${shortTag(node)}`);
          return;
        }
        const inner: FieldSpec = { ...spec, kind: 'scalar' };
        for (const pair of node.items as Pair<Node, Node | null>[]) this.field(inner, pair.value);
        return;
      }
    }
    if (isConfigKind(spec.type)) {
      this.component(spec.type, node);
      return;
    }
    if (spec.children && spec.children.length > 0) {
      this.fields(spec.children, node);
      return;
    }
    switch (spec.type) {
      case 'bool':
      case 'string':
      case 'int':
      case 'float':
        if (isMap(node) || isSeq(node)) this.report(node, `expected ${spec.type} value`);
        return;
      case 'object':
        if (!isMap(node) && !isAlias(node)) this.report(node, `expected object value, got ${shortTag(node)}`);
        return;
    }
  }

  /** Lints a component: `{<name>: {...}}` or `{type: <name>, <name>: {...}}` plus wrapper keys. */
  component(kind: ConfigKind, input: Node | null): void {
    const node = this.resolve(input);
    if (!node || !isMap(node) || node.items.length === 0) return;
    const pairs = this.mergedPairs(node);
    const keys: string[] = [];
    let explicit = '';
    for (const pair of pairs) {
      const key = keyName(pair);
      if (key === 'type') {
        explicit = isScalar(pair.value) ? String(pair.value.value ?? '') : '';
        break;
      }
      keys.push(key);
    }
    const inference = inferComponentType(this.options.provider, kind, keys, explicit);
    if (!inference.ok) {
      const what = keys.length === 1 ? keys[0] : `[${keys.join(' ')}]`;
      this.report(node, `unable to infer component type: ${what}`);
      return;
    }
    const name = inference.name;
    const schema = this.options.provider.get(kind, name);
    if (!schema) {
      this.report(node, `failed to obtain docs for ${kind} type ${name}`);
      return;
    }
    if (this.options.rejectDeprecated && schema.status === 'deprecated') {
      this.report(node, `component ${name} is deprecated`);
    }
    const configField = { ...configFieldOf(schema), name: schema.root?.name || name };
    const own = pairs.find((p) => keyName(p) === name);
    if (own) this.settings(schema, configField, own.value);

    const reserved = wrapperFields(kind);
    for (const pair of pairs) {
      const key = keyName(pair);
      if (key === name || key === 'type') continue;
      if (key === 'plugin') {
        if (own) this.report(pair.key, 'plugin object is ineffective');
        else this.settings(schema, configField, pair.value);
        continue;
      }
      const spec = reserved.get(key);
      if (!spec) {
        this.report(pair.key, `field ${key} is invalid when the component type is ${name} (${kind})`);
        continue;
      }
      this.omittable(key, name, node, pair.value);
      if (key === 'label' && canLabel(kind)) this.label(pair.value);
      this.field(spec, pair.value);
    }
    const labelled = pairs.some((p) => keyName(p) === 'label');
    if (this.options.requireLabels && canLabel(kind) && !labelled && name !== 'resource') {
      this.report(node, `label is required for ${name}`);
    }
    const settings = own?.value ?? pairs.find((p) => keyName(p) === 'plugin')?.value ?? null;
    this.components.push({ kind, name, node, settings: this.resolve(settings) ?? null });
    this.componentHook(schema, settings, own?.value ?? node);
  }

  /**
   * A component's own settings. One declared with no fields at all (`drop`, `noop`,
   * `sync_response`) still has its keys checked: `drop: {nope: 1}` names `nope`.
   */
  private settings(schema: ComponentSchema, configField: FieldSpec, value: Node | null): void {
    const node = this.resolve(value);
    if (!schema.root && schema.fields.length === 0 && node && isMap(node)) this.fields([], node);
    else this.field(configField, value);
  }

  /** A map's pairs with YAML merge keys (`<<: *a`, `<<: [*a, *b]`) expanded; its own keys win. */
  private mergedPairs(node: YAMLMap, depth = 0): Pair<Node, Node | null>[] {
    const items = node.items as Pair<Node, Node | null>[];
    const out = items.filter((p) => keyName(p) !== '<<');
    if (out.length === items.length || depth > 20) return out;
    const present = new Set(out.map(keyName));
    for (const pair of items) {
      if (keyName(pair) !== '<<') continue;
      const sources = isSeq(pair.value) ? (pair.value.items as Node[]) : [pair.value];
      for (const source of sources) {
        const merged = this.resolve(source);
        if (!merged || !isMap(merged)) continue;
        for (const inner of this.mergedPairs(merged, depth + 1)) {
          const key = keyName(inner);
          if (present.has(key)) continue;
          present.add(key);
          out.push(inner);
        }
      }
    }
    return out;
  }

  private componentHook(schema: ComponentSchema, settings: Node | null, at: Node | null): void {
    if (!schema.lint) return;
    let config: unknown;
    try {
      const plain = settings ? settings.toJS(this.doc, { maxAliasCount: MAX_ALIAS_COUNT }) : undefined;
      config = normaliseSettings(
        schema,
        plain,
        { docPath: [], configPath: 'root' },
        { provider: this.options.provider },
      );
    } catch {
      return; // the conversion step reports values it cannot read
    }
    const resolved = this.resolve(settings);
    const pairs = resolved && isMap(resolved) ? this.mergedPairs(resolved) : [];
    for (const message of schema.lint(config)) {
      if (typeof message === 'string') {
        this.report(at, message);
        continue;
      }
      // At the field's value when it is written, else at the component.
      const pair = pairs.find((p) => keyName(p) === message.field);
      this.report(pair ? (pair.value ?? pair.key) : at, lintText(message));
    }
  }

  /** Wrapper keys the reference asks to remove: a label on a resource reference, empty processors. */
  private omittable(key: string, name: string, parent: Node, value: Node | null): void {
    if (key === 'label' && isMap(parent)) {
      const resource = parent.get('resource');
      if (name === 'resource' || (typeof resource === 'string' && resource !== '')) {
        this.report(value, 'label field should be omitted when pointing to a resource');
      }
    }
    if (key === 'processors' && isSeq(value) && value.items.length === 0) {
      this.report(value, 'field processors is empty and can be removed');
    }
  }

  private label(value: Node | null): void {
    if (!isScalar(value) || typeof value.value !== 'string' || value.value === '') return;
    const label = value.value;
    const line = this.lineOfValue(value);
    if (label.startsWith('_') || !LABEL_PATTERN.test(label)) {
      this.add(
        value,
        lintAt(
          line,
          `invalid label '${label}': should match the regular expression /${LABEL_PATTERN.source}/ and must not start with an underscore`,
        ),
      );
      return;
    }
    const previous = this.labels.get(label);
    if (previous !== undefined) {
      this.add(
        value,
        lintAt(line, `label '${label}' collides with a previously defined label at line ${previous}`),
      );
      return;
    }
    this.labels.set(label, line);
  }

  /** Options, Bloblang and interpolation checks of a scalar value. */
  private custom(spec: FieldSpec, node: Node | null): void {
    if (isMap(node) || isSeq(node) || isAlias(node)) return;
    const value = isScalar(node) ? node.value : null;
    if (
      spec.options &&
      spec.options.length > 0 &&
      spec.kind === 'scalar' &&
      !matchesOption(spec.options, value)
    ) {
      this.add(
        node,
        lintAt(this.lineOfValue(node), `value ${goString(value)} is not a valid option for this field`),
      );
    }
    if (typeof value !== 'string' || value === '') return;
    const checks: [boolean, (text: string) => { message: string; line: number } | undefined][] = [
      [spec.interpolated === true, (t) => this.bloblang.checkInterpolation(t)],
      // A field nekton refuses outright says only that, not also what is wrong inside it.
      [spec.bloblang === true && spec.check !== 'unsupported', (t) => this.bloblang.checkMapping(t)],
      [spec.regexp === true, regexpProblem],
      [
        spec.check === 'duration' && !(spec.interpolated && value.includes(INTERPOLATION_START)),
        durationProblem,
      ],
      [spec.check === 'unsupported', () => ({ message: 'is not supported by nekton: remove it', line: 1 })],
    ];
    for (const [applies, check] of checks) {
      if (!applies) continue;
      const problem = check(value);
      if (problem) {
        const line = this.lineOfValue(node) + Math.max(problem.line, 1) - 1;
        this.add(node, lintAt(line, `field ${spec.name}: ${problem.message}`));
      }
    }
  }

  /** Line of a value; a block literal's text starts on the line after its `|`. */
  private lineOfValue(node: Node | null): number {
    const line = lineOf(node, this.lines);
    return node instanceof Scalar && node.type === 'BLOCK_LITERAL' ? line + 1 : line;
  }

  /** A lint about `node`; one about a `--set` value names the `--set` (it has no line). */
  private add(node: Node | null | undefined, lint: Lint): void {
    const origin = setOriginOf(node);
    this.lints.push(origin ? { ...lint, origin } : lint);
  }

  report(node: Node | null | undefined, message: string): void {
    this.add(node, lintAt(lineOf(node, this.lines), message));
  }

  /** Follows aliases (bounded, so an alias bomb cannot make linting explode). */
  private resolve(node: Node | null | undefined): Node | null | undefined {
    if (!isAlias(node)) return node;
    if (++this.aliasesResolved > MAX_ALIAS_COUNT) return undefined;
    return (node.resolve(this.doc) as Node | undefined) ?? undefined;
  }
}

/** Where a `${! }` interpolation starts: such a value is checked when it runs. */
const INTERPOLATION_START = '$' + '{!';

function keyName(pair: Pair<unknown, unknown>): string {
  if (!isScalar(pair.key)) return String(pair.key);
  const value = pair.key.value;
  // With merge keys on, the parser gives `<<` as a symbol.
  return typeof value === 'symbol' ? (value.description ?? '') : String(value);
}

/** `%v` of a decoded YAML scalar as Go prints it. */
function goString(value: unknown): string {
  return value === null || value === undefined ? 'null' : String(value);
}

/** Case-insensitive; an option such as `delim:x` stands for any `delim:` value. */
function matchesOption(options: readonly string[], value: unknown): boolean {
  const text = goString(value).toLowerCase();
  return options.some((option) => {
    const o = option.toLowerCase();
    return o === text || (o.endsWith(':x') && text.startsWith(o.slice(0, -1)));
  });
}
