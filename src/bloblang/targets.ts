// Which message fields a mapping reads and which it writes, found from its syntax tree. The
// `workflow` processor orders its branches with this, as the reference does (a best attempt:
// only `this` paths, `json()` and metadata reads count, never `content()` or variables).
import type { Expr, MapDecl, Statement } from './ast.js';
import { parseProgram } from './parser.js';

/** `value` is the message's structured content, `metadata` its metadata; path empty = all of it. */
export interface TargetPath {
  kind: 'value' | 'metadata';
  path: string[];
}

export interface MappingTargets {
  /** What the mapping's queries read from the input message. */
  reads: TargetPath[];
  /** What the mapping's assignments write to the output message. */
  writes: TargetPath[];
}

/** Internal path: also `root` (the document being built) and variables, dropped at the end. */
interface AnyPath {
  kind: 'value' | 'metadata' | 'root' | 'variable';
  path: string[];
}

interface Scope {
  /** What `this` refers to; null is the input message itself. */
  main: AnyPath[] | null;
  named: ReadonlyMap<string, AnyPath[]>;
  maps: ReadonlyMap<string, MapDecl>;
}

interface Found {
  /** Every path read by the expression. */
  reads: AnyPath[];
  /** The paths the expression's value comes from (what a following `.field` extends). */
  value: AnyPath[];
}

// Methods whose arguments are queries run against each element, not against `this`: the
// reference reports only their target.
const ELEMENT_QUERY_METHODS = new Set([
  'map_each',
  'map_each_key',
  'filter',
  'any',
  'all',
  'fold',
  'sort',
  'sort_by',
  'find_by',
  'find_all_by',
  'unique',
]);

const NONE: Found = { reads: [], value: [] };

function extend(paths: AnyPath[], path: string[]): AnyPath[] {
  return paths.map((p) => ({ kind: p.kind, path: [...p.path, ...path] }));
}

function merge(...found: Found[]): AnyPath[] {
  return found.flatMap((f) => f.reads);
}

function literalString(e: Expr | undefined): string | null {
  return e?.kind === 'literal' && typeof e.value === 'string' ? e.value : null;
}

function expr(e: Expr, scope: Scope): Found {
  switch (e.kind) {
    case 'literal':
      return NONE;
    case 'array': {
      const reads = e.items.flatMap((item) => expr(item, scope).reads);
      return { reads, value: [] };
    }
    case 'object': {
      const reads = e.entries.flatMap((en) => [...expr(en.key, scope).reads, ...expr(en.value, scope).reads]);
      return { reads, value: [] };
    }
    case 'this': {
      const value = extend(scope.main ?? [{ kind: 'value', path: [] }], e.path);
      return { reads: value, value };
    }
    case 'root': {
      const value: AnyPath[] = [{ kind: 'root', path: e.path }];
      return { reads: value, value };
    }
    case 'label': {
      const value = extend(scope.named.get(e.name) ?? [], e.path);
      return { reads: value, value };
    }
    case 'var': {
      const value: AnyPath[] = [{ kind: 'variable', path: [e.name] }];
      return { reads: value, value };
    }
    case 'meta': {
      const value: AnyPath[] = [{ kind: 'metadata', path: e.key === null ? [] : [e.key] }];
      return { reads: value, value };
    }
    case 'get': {
      const target = expr(e.target, scope);
      const value = extend(target.value, e.path);
      return { reads: [...target.reads, ...value], value };
    }
    case 'call':
      return call(e.name, [...e.args.positional, ...(e.args.named ?? []).map((a) => a.value)], scope);
    case 'method':
      return method(e, scope);
    case 'context': {
      const target = expr(e.target, scope);
      const body =
        e.body.kind === 'lambda'
          ? expr(e.body.body, { ...scope, named: withName(scope.named, e.body.param, target.value) })
          : expr(e.body, { ...scope, main: target.value });
      return { reads: [...target.reads, ...body.reads], value: body.value };
    }
    case 'lambda':
      return {
        reads: expr(e.body, { ...scope, named: withName(scope.named, e.param, []) }).reads,
        value: [],
      };
    case 'not':
    case 'neg':
      return { reads: expr(e.operand, scope).reads, value: [] };
    case 'binary':
      return { reads: merge(expr(e.left, scope), expr(e.right, scope)), value: [] };
    case 'if': {
      const parts = e.branches.flatMap((b) => [expr(b.cond, scope), expr(b.body, scope)]);
      const bodies = e.branches.map((b) => expr(b.body, scope));
      if (e.otherwise) bodies.push(expr(e.otherwise, scope));
      return { reads: merge(...parts, ...bodies), value: bodies.flatMap((b) => b.value) };
    }
    case 'match': {
      const subject = e.subject ? expr(e.subject, scope) : null;
      const inner = subject ? { ...scope, main: subject.value } : scope;
      const cases = e.cases.flatMap((c) =>
        c.pattern ? [expr(c.pattern, inner), expr(c.body, inner)] : [expr(c.body, inner)],
      );
      return {
        reads: [...(subject?.reads ?? []), ...merge(...cases)],
        value: e.cases.flatMap((c) => expr(c.body, inner).value),
      };
    }
  }
}

function withName(named: ReadonlyMap<string, AnyPath[]>, name: string, paths: AnyPath[]) {
  const out = new Map(named);
  out.set(name, paths);
  return out;
}

function call(name: string, args: Expr[], scope: Scope): Found {
  if (name === 'json') {
    const path = args.length === 0 ? '' : literalString(args[0]);
    if (path !== null) {
      const value: AnyPath[] = [{ kind: 'value', path: path === '' ? [] : path.split('.') }];
      return { reads: value, value };
    }
  }
  if (name === 'meta' || name === 'metadata' || name === 'root_meta') {
    const key = args.length === 0 ? '' : literalString(args[0]);
    if (key !== null) {
      const value: AnyPath[] = [{ kind: 'metadata', path: key === '' ? [] : [key] }];
      return { reads: value, value };
    }
  }
  return { reads: args.flatMap((a) => expr(a, scope).reads), value: [] };
}

function method(e: Extract<Expr, { kind: 'method' }>, scope: Scope): Found {
  const target = expr(e.target, scope);
  const args = [...e.args.positional, ...(e.args.named ?? []).map((a) => a.value)];
  if (e.name === 'apply') {
    const decl = scope.maps.get(literalString(args[0]) ?? '');
    if (decl) {
      const reads = statements(decl.body, { ...scope, main: target.value });
      return { reads: [...target.reads, ...reads], value: [] };
    }
  }
  if (ELEMENT_QUERY_METHODS.has(e.name)) return target;
  const argReads = args.filter((a) => a.kind !== 'lambda').flatMap((a) => expr(a, scope).reads);
  return { reads: [...target.reads, ...argReads], value: target.value };
}

function statements(list: readonly Statement[], scope: Scope): AnyPath[] {
  const out: AnyPath[] = [];
  for (const s of list) {
    if (s.kind === 'assign') out.push(...expr(s.value, scope).reads);
    else {
      for (const b of s.branches) out.push(...expr(b.cond, scope).reads, ...statements(b.body, scope));
      if (s.otherwise) out.push(...statements(s.otherwise, scope));
    }
  }
  return out;
}

function assignments(list: readonly Statement[]): TargetPath[] {
  const out: TargetPath[] = [];
  for (const s of list) {
    if (s.kind === 'assign') {
      const t = s.target;
      if (t.kind === 'root') out.push({ kind: 'value', path: t.path });
      else if (t.kind === 'meta') out.push({ kind: 'metadata', path: t.key === null ? [] : [t.key] });
    } else {
      for (const b of s.branches) out.push(...assignments(b.body));
      if (s.otherwise) out.push(...assignments(s.otherwise));
    }
  }
  return out;
}

function isMessagePath(p: AnyPath): p is TargetPath {
  return p.kind === 'value' || p.kind === 'metadata';
}

/**
 * The fields a mapping reads and writes. Imported files are not followed (their statements count
 * for nothing). Throws BloblangParseError when the mapping does not parse.
 */
export function mappingTargets(text: string): MappingTargets {
  const program = parseProgram(text, { loadFile: () => ({ statements: [], maps: new Map() }) });
  const scope: Scope = { main: null, named: new Map(), maps: program.maps };
  return {
    reads: statements(program.statements, scope).filter(isMessagePath),
    writes: assignments(program.statements),
  };
}
