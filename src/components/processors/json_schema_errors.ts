// Renders Ajv validation errors the way the reference (gojsonschema) words them: one line per
// error, "<field> <description>", the field dotted from the root ("(root)" for the document).
import type { ErrorObject } from 'ajv';

export function describeErrors(errors: readonly ErrorObject[]): string {
  return errors.map(describeError).join('\n');
}

function describeError(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  const fieldPath = fieldOf(e.instancePath);
  const property = propertyOf(e);
  let description = wording(e, params).toLowerCase();
  // The reference puts a property name back in its original case in front of the text.
  if (property !== null) {
    const lower = property.toLowerCase();
    description = property + (description.startsWith(lower) ? description.slice(lower.length) : description);
  }
  return `${fieldPath} ${description}`;
}

function fieldOf(instancePath: string): string {
  if (instancePath === '') return '(root)';
  return instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function propertyOf(e: ErrorObject): string | null {
  if (e.keyword === 'required') return String((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') {
    return String((e.params as { additionalProperty: string }).additionalProperty);
  }
  return null;
}

/** A numeric bound in the reference's words: `Must be greater than (or equal to) N`. */
function bound(side: 'greater' | 'less', exclusive: boolean, limit: unknown): string {
  return `Must be ${side} than ${exclusive ? '' : 'or equal to '}${limit}`;
}

function wording(e: ErrorObject, p: Record<string, unknown>): string {
  switch (e.keyword) {
    case 'type':
      return `Invalid type. Expected: ${String(p.type).replace(/,/g, '/')}, given: ${typeOf(e.data)}`;
    case 'required':
      return `${String(p.missingProperty)} is required`;
    case 'additionalProperties':
      return `Additional property ${String(p.additionalProperty)} is not allowed`;
    case 'minimum':
      return bound('greater', p.comparison === '>', p.limit);
    case 'exclusiveMinimum':
      return bound('greater', true, p.limit);
    case 'maximum':
      return bound('less', p.comparison === '<', p.limit);
    case 'exclusiveMaximum':
      return bound('less', true, p.limit);
    case 'minLength':
      return `String length must be greater than or equal to ${p.limit}`;
    case 'maxLength':
      return `String length must be less than or equal to ${p.limit}`;
    case 'pattern':
      return `Does not match pattern '${String(p.pattern)}'`;
    case 'format':
      return `Does not match format '${String(p.format)}'`;
    case 'enum':
      return `Must be one of the following: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `Does not match: ${JSON.stringify(p.allowedValue)}`;
    case 'multipleOf':
      return `Must be a multiple of ${p.multipleOf}`;
    case 'minItems':
      return `Array must have at least ${p.limit} items`;
    case 'maxItems':
      return `Array must have at most ${p.limit} items`;
    case 'uniqueItems':
      return `array items[${p.j},${p.i}] must be unique`;
    case 'minProperties':
      return `Must have at least ${p.limit} properties`;
    case 'maxProperties':
      return `Must have at most ${p.limit} properties`;
    case 'oneOf':
      return 'Must validate one and only one schema (oneOf)';
    case 'anyOf':
      return 'Must validate at least one schema (anyOf)';
    case 'not':
      return 'Must not validate the schema (not)';
    case 'if':
      return `Must validate "${String(p.failingKeyword)}" as "if" was valid`;
    case 'dependencies':
    case 'dependentRequired':
      return `Has a dependency on ${String(p.deps)}`;
    default:
      return e.message ?? `failed ${e.keyword}`;
  }
}

/** gojsonschema's type names for the given value. */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  return typeof v;
}
