// The stored form of a dynamic input/output (spec §6.5): `label` first, then the component key
// with only the supplied fields in schema order, then non-empty `processors`; `type` keys
// dropped, secrets scrubbed, 4-space indent. Scalars keep the style they were written in,
// as go-yaml v3 does when it re-encodes parsed nodes.
import { Document, isMap, isScalar, isSeq, type Node, type Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ConfigError } from '../engine/errors.js';
import { inferComponentType } from './infer_type.js';
import { type ConfigKind, configFieldOf, isConfigKind, type SchemaProvider } from './schema.js';
import { scrubValue } from './scrub.js';
import { isSensitiveName, scrubSecretText } from './secret_text.js';
import type { FieldSpec } from './spec.js';
import type { ParsedYaml } from './yaml_document.js';

function isParsed(source: unknown): source is ParsedYaml {
  return typeof source === 'object' && source !== null && (source as ParsedYaml).doc instanceof Document;
}

function keyOf(pair: Pair<unknown, unknown>): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function entries(node: YAMLMap): Map<string, Node | null> {
  return new Map((node.items as Pair<unknown, Node | null>[]).map((p) => [keyOf(p), p.value]));
}

/** `source` is a parsed body (styles kept) or a plain value (e.g. a static `outputs` entry). */
export function normalisedComponentYaml(kind: ConfigKind, source: unknown, provider: SchemaProvider): string {
  const doc = isParsed(source) ? source.doc : new Document(source);
  const root = doc.contents as Node | null;
  const out = new Document();
  out.contents = sanitiseComponent(kind, root, provider, true) as never;
  // go-yaml falls back to single quotes when a string cannot be plain.
  return out.toString({ indent: 4, indentSeq: true, lineWidth: 0, singleQuote: true });
}

function sanitiseComponent(
  kind: ConfigKind,
  node: Node | null,
  provider: SchemaProvider,
  top: boolean,
): Node | null {
  if (!isMap(node)) return node;
  const fields = entries(node);
  const typeNode = fields.get('type');
  const explicit = isScalar(typeNode) && typeof typeNode.value === 'string' ? typeNode.value : undefined;
  const inferred = inferComponentType(provider, kind, [...fields.keys()], explicit);
  if (!inferred.ok) throw new ConfigError(inferred.error);
  const schema = provider.get(kind, inferred.name);
  if (!schema) throw new ConfigError(`${kind} type '${inferred.name}' was not recognised`);

  const out = new YAMLMap();
  const label = fields.get('label');
  if (top || label !== undefined) {
    out.set('label', goString(isScalar(label) && label.value !== null ? String(label.value) : ''));
  }
  const settings = fields.get(inferred.name) ?? fields.get('plugin');
  out.set(
    inferred.name,
    settings ? sanitiseField(configFieldOf(schema), settings, provider) : emptyFlowMap(),
  );
  const processors = fields.get('processors');
  if ((kind === 'input' || kind === 'output') && isSeq(processors) && processors.items.length > 0) {
    const list = new YAMLSeq();
    for (const item of processors.items as (Node | null)[])
      list.add(sanitiseComponent('processor', item, provider, false));
    out.set('processors', list);
  }
  return out;
}

/** A new string scalar styled as go-yaml v3 encodes one: double quotes when it would read as another type. */
function goString(value: string): Scalar {
  const scalar = new Scalar(value);
  if (
    value === '' ||
    /^(true|false|null|~|[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?|0x[0-9a-fA-F]+|0o[0-7]+)$/i.test(value)
  ) {
    scalar.type = 'QUOTE_DOUBLE';
  }
  return scalar;
}

function emptyFlowMap(): YAMLMap {
  const map = new YAMLMap();
  map.flow = true;
  return map;
}

function sanitiseField(spec: FieldSpec, node: Node | null, provider: SchemaProvider): Node | null {
  if (spec.kind === 'array' || spec.kind === '2darray') {
    if (!isSeq(node)) return node;
    const inner: FieldSpec = { ...spec, kind: spec.kind === '2darray' ? 'array' : 'scalar' };
    const seq = new YAMLSeq();
    seq.flow = node.flow;
    for (const item of node.items as (Node | null)[]) seq.add(sanitiseField(inner, item, provider));
    return seq;
  }
  if (spec.kind === 'map') {
    if (!isMap(node)) return node;
    const inner: FieldSpec = { ...spec, kind: 'scalar' };
    const map = new YAMLMap();
    map.flow = node.flow;
    for (const [key, value] of entries(node)) {
      // A header map's `Authorization` (and the like) holds a credential whatever the field says.
      map.set(key, sanitiseField(isSensitiveName(key) ? { ...inner, secret: true } : inner, value, provider));
    }
    return map;
  }
  if (isConfigKind(spec.type)) return sanitiseComponent(spec.type, node, provider, false);
  if (spec.children) {
    if (!isMap(node)) return node;
    const present = entries(node);
    const map = new YAMLMap();
    map.flow = node.flow;
    for (const child of spec.children) {
      if (present.has(child.name))
        map.set(child.name, sanitiseField(child, present.get(child.name) ?? null, provider));
    }
    return map;
  }
  if (spec.secret && (isScalar(node) || node === null))
    return new Scalar(scrubValue(isScalar(node) ? node.value : null));
  return withoutEmbeddedSecrets(node);
}

/** A string scalar with URL/DSN passwords hidden, keeping the style it was written in. */
function withoutEmbeddedSecrets(node: Node | null): Node | null {
  if (!isScalar(node) || typeof node.value !== 'string') return node;
  const scrubbed = scrubSecretText(node.value);
  if (scrubbed === node.value) return node;
  const out = new Scalar(scrubbed);
  out.type = node.type;
  return out;
}
