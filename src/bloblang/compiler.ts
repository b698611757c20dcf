// One file (over 400 lines): the compile of every expression kind is one recursive switch whose cases call each other.
// Compiles the syntax tree ONCE into closures. Each expression becomes `(exec, self) => result`
// where `self` is the current context (`this`); constant sub-expressions are folded at compile
// time so that errors in them surface as parse errors, like the reference's.

import { keyWriter, plainObjectMaker, pathReader as readerOf } from './accessors.js';
import { bindArgs, coerceArg, paramsFor } from './args.js';
import { addNumbers, asNumeric, concat, divNumbers, modNumbers, mulNumbers, subNumbers } from './arith.js';
import type { BinaryOp, CallArgs, Expr, MapDecl, Program, Statement, Target } from './ast.js';
import { CORE_METHODS } from './core_functions.js';
import { MappingError } from './errors.js';
import { assignPath, Exec, LAZY_THIS, type Self } from './exec.js';
import { parseError } from './lexer.js';
import {
  type Args,
  BloblangError,
  DELETED,
  JsonNumber,
  lookupFunction,
  lookupMethod,
  NOTHING,
  type ParamSpec,
  type QueryArg,
  type Value,
} from './library.js';
import {
  bytesToString,
  cloneValue,
  compareValues,
  deepEqual,
  isObject,
  type Result,
  setKey,
  TypeMismatchError,
  typeName,
  type ValueObject,
} from './value.js';

export type Fn = (x: Exec, self: Self) => Result;
// A Result is a symbol only when it is DELETED or NOTHING: `typeof v === 'symbol'` tests for both
// without comparing a value of any type with a symbol (a call in optimised code, where typeof is not).

interface Node {
  fn: Fn;
  /** True when the value is known at compile time (then `value` holds it). */
  constant: boolean;
  value?: Result;
  /** How the reference names this expression in errors (`field \`this.a\``). */
  annotation: string;
}

export type StatementFn = (x: Exec) => void;

/** Maximum nesting of named-map applications before giving up. */
const MAX_MAP_DEPTH = 500;

/** Errors already carrying their origin; not prefixed again by enclosing method calls. */
const annotated = new WeakSet<Error>();

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function resolveSelf(x: Exec, self: Self): Result {
  return self === LAZY_THIS ? x.thisValue() : self;
}

export function literalAnnotation(v: unknown): string {
  switch (typeName(v)) {
    case 'string':
      return 'string literal';
    case 'number':
      return 'number literal';
    case 'bool':
      return 'boolean literal';
    case 'null':
      return 'null literal';
    case 'array':
      return 'array literal';
    case 'object':
      return 'object literal';
    default:
      return 'literal';
  }
}

function constNode(value: Result, annotation = literalAnnotation(value)): Node {
  const v = typeof value === 'string' ? internalized(value) : value;
  return { fn: () => v, constant: true, value: v, annotation };
}

/**
 * The internalized copy of `s` (the one property keys use): comparing it with a parsed document's
 * short strings (which JSON.parse internalizes) is then a pointer compare.
 */
function internalized(s: string): string {
  if (s.length > 64) return s;
  const keys = Object.keys({ [s]: null });
  return keys.length === 1 && keys[0] === s ? keys[0] : s;
}

function pathText(base: string, path: readonly string[]): string {
  return path.length === 0 ? base : `${base}.${path.join('.')}`;
}

/** `this.a.b...` read from the context (a path of at least one key). */
function thisPathFn(path: readonly string[]): Fn {
  const read = pathReader(path);
  return (x, self) => read(self === LAZY_THIS ? x.thisValue() : self);
}

/** A reader of `path` below a value (see accessors.ts). */
function pathReader(path: readonly string[]): (v: Result) => Value {
  if (path.length === 0) return (v) => v as Value;
  return readerOf(path);
}

function isTruthyCondition(v: Result, what: string): boolean {
  if (v === true) return true;
  if (v === false || v === null) return false;
  throw new BloblangError(`${what}: ${new TypeMismatchError(['bool'], v).message}`);
}

const BINARY_VERBS: Partial<Record<BinaryOp, string>> = {
  '+': 'add',
  '-': 'subtract',
  '*': 'multiply',
  '/': 'divide',
  '%': 'modulo',
};

export interface CompiledProgram {
  statements: StatementFn[];
  varCount: number;
  /** Applies a named map (used by `.apply()`). */
  applyMap(x: Exec, name: string, value: Value): Result;
}

export class Compiler {
  private readonly varSlots = new Map<string, number>();
  private readonly labelSlots = new Map<string, number>();
  private readonly compiledMaps = new Map<string, StatementFn[]>();
  private maps: Map<string, MapDecl> = new Map();
  /** Evaluation context for folding constants at compile time. */
  private readonly foldExec = new Exec([], 0, new Map(), 0);
  /** Makes the root objects this program's `root.key = ...` statements start (see plainObjectMaker). */
  private readonly newRoot = plainObjectMaker();

  constructor(private readonly text: string) {}

  private fail(pos: number, message: string): never {
    throw parseError(this.text, pos, message);
  }

  private varSlot(name: string): number {
    let slot = this.varSlots.get(name);
    if (slot === undefined) {
      slot = this.varSlots.size;
      this.varSlots.set(name, slot);
    }
    return slot;
  }

  private labelSlot(name: string): number {
    let slot = this.labelSlots.get(name);
    if (slot === undefined) {
      slot = this.labelSlots.size;
      this.labelSlots.set(name, slot);
    }
    return slot;
  }

  compileProgram(program: Program): CompiledProgram {
    this.maps = program.maps;
    const statements = program.statements.map((s) => this.compileStatement(s, true));
    // Compile every map now so errors in them surface at parse time.
    for (const name of program.maps.keys()) this.mapStatements(name);
    const self = this;
    return {
      statements,
      get varCount() {
        return self.varSlots.size;
      },
      applyMap: (x, name, value) => this.runMap(x, name, value),
    };
  }

  /** Compiles a lone query (interpolations, `check` fields). */
  compileQuery(expr: Expr): Fn {
    return this.compile(expr).fn;
  }

  get varCount(): number {
    return this.varSlots.size;
  }

  private mapStatements(name: string): StatementFn[] {
    let stmts = this.compiledMaps.get(name);
    if (!stmts) {
      const decl = this.maps.get(name);
      if (!decl) throw new BloblangError(`map ${name} was not found`);
      stmts = [];
      this.compiledMaps.set(name, stmts);
      for (const s of decl.body) stmts.push(this.compileStatement(s, false));
    }
    return stmts;
  }

  private runMap(x: Exec, name: string, value: Value): Result {
    if (!this.maps.has(name)) throw new BloblangError(`map ${name} was not found`);
    const stmts = this.mapStatements(name);
    if (x.depth >= MAX_MAP_DEPTH) throw new BloblangError(`map ${name}: maximum recursion depth exceeded`);
    const sub = new Exec(x.batch, x.index, x.state, this.varSlots.size);
    sub.setThis(value);
    sub.depth = x.depth + 1;
    sub.out = x.out;
    for (const s of stmts) s(sub);
    return sub.root;
  }

  // -------------------------------------------------------------------------
  // Statements

  private compileStatement(s: Statement, topLevel: boolean): StatementFn {
    const prefix = `failed assignment (line ${s.line}): `;
    const wrap = (e: unknown): Error => {
      if (e instanceof MappingError) return e;
      const msg = prefix + errorMessage(e);
      return topLevel ? new MappingError(msg) : new BloblangError(msg);
    };
    if (s.kind === 'if') {
      const branches = s.branches.map((b) => ({
        cond: this.compile(b.cond).fn,
        body: b.body.map((st) => this.compileStatement(st, topLevel)),
      }));
      const otherwise = s.otherwise?.map((st) => this.compileStatement(st, topLevel)) ?? null;
      return (x) => {
        for (const b of branches) {
          let ok: boolean;
          try {
            ok = isTruthyCondition(b.cond(x, LAZY_THIS), 'if statement');
          } catch (e) {
            throw wrap(e);
          }
          if (ok) {
            for (const st of b.body) st(x);
            return;
          }
        }
        if (otherwise) for (const st of otherwise) st(x);
      };
    }
    const value = this.compile(s.value).fn;
    const t = s.target;
    if (t.kind === 'root' && t.path.length === 1 && t.path[0] !== '__proto__') {
      const path = t.path;
      const write = keyWriter(path[0]);
      const newRoot = this.newRoot;
      return (x) => {
        try {
          const v = value(x, LAZY_THIS);
          const root = x.root;
          // A value (not deleted() or nothing) set on the object an earlier assignment made, or on a
          // new one when there is no root yet (the usual cases): a plain store. The rest as assignPath.
          if (typeof v !== 'symbol') {
            if (root === x.madeRoot && root !== null) {
              write(root as ValueObject, v);
              return;
            }
            if (root === NOTHING) {
              const made = newRoot();
              write(made, v);
              x.root = x.madeRoot = made;
              return;
            }
          }
          assignPath(x, path, v);
        } catch (e) {
          throw wrap(e);
        }
      };
    }
    const assign = this.compileTarget(t);
    return (x) => {
      try {
        assign(x, value(x, LAZY_THIS));
      } catch (e) {
        throw wrap(e);
      }
    };
  }

  private compileTarget(t: Target): (x: Exec, v: Result) => void {
    switch (t.kind) {
      case 'root': {
        const path = t.path;
        if (path.length === 0) {
          return (x, v) => {
            if (v !== NOTHING) x.root = v;
          };
        }
        return (x, v) => assignPath(x, path, v);
      }
      case 'let': {
        const slot = this.varSlot(t.name);
        return (x, v) => {
          if (v === NOTHING) return;
          if (x.vars.length === 0) x.vars = new Array(this.varSlots.size);
          x.vars[slot] = v === DELETED ? undefined : v;
        };
      }
      case 'meta': {
        const key = t.key;
        if (key === null) {
          return (x, v) => {
            if (v === NOTHING) return;
            const out = ensureOut(x);
            if (v === DELETED) {
              out.replaceMetadata(new Map());
              return;
            }
            if (!isObject(v)) {
              throw new BloblangError(
                `setting root meta object requires object value, received: ${typeName(v)}`,
              );
            }
            out.replaceMetadata(new Map(Object.entries(v)));
          };
        }
        return (x, v) => {
          if (v === NOTHING) return;
          const out = ensureOut(x);
          if (v === DELETED) out.deleteMeta(key);
          else out.setMeta(key, v);
        };
      }
    }
  }

  // -------------------------------------------------------------------------
  // Expressions

  private compile(e: Expr): Node {
    const node = this.compileInner(e);
    return node;
  }

  /** >0 while compiling code that may never run or whose errors are caught (`a && b`, `.catch`). */
  private guarded = 0;

  private compileGuarded(e: Expr): Node {
    this.guarded++;
    try {
      return this.compile(e);
    } finally {
      this.guarded--;
    }
  }

  /**
   * Evaluates a constant node now. Errors become parse errors at `pos`, as in the reference,
   * unless the expression is guarded: then it fails only if and when it runs.
   */
  private fold(fn: Fn, pos: number, annotation: string): Node {
    try {
      return constNode(fn(this.foldExec, null), annotation);
    } catch (err) {
      if (this.guarded === 0) this.fail(pos, errorMessage(err));
      return {
        fn: () => {
          throw err;
        },
        constant: false,
        annotation,
      };
    }
  }

  private compileInner(e: Expr): Node {
    switch (e.kind) {
      case 'literal':
        return constNode(e.value);
      case 'array':
        return this.compileArray(e.items, e.pos);
      case 'object':
        return this.compileObject(e.entries, e.pos);
      case 'this': {
        const annotation = `field \`${pathText('this', e.path)}\``;
        if (e.path.length === 0) return { fn: resolveSelf, constant: false, annotation };
        return { fn: thisPathFn(e.path), constant: false, annotation };
      }
      case 'root': {
        const read = pathReader(e.path);
        return {
          // A copy, so that assigning root into itself cannot create a cycle.
          fn: (x) => {
            const v = x.root === NOTHING || x.root === DELETED ? null : read(x.root);
            return typeof v === 'object' && v !== null ? cloneValue(v) : v;
          },
          constant: false,
          annotation: `field \`${pathText('root', e.path)}\``,
        };
      }
      case 'label': {
        const slot = this.labelSlot(e.name);
        const read = pathReader(e.path);
        return {
          fn: (x) => read(x.labels[slot] ?? null),
          constant: false,
          annotation: `field \`${pathText(e.name, e.path)}\``,
        };
      }
      case 'var':
        return this.compileVar(e.name);
      case 'meta': {
        const key = e.key;
        if (key === null) {
          return { fn: (x) => metaObject(x), constant: false, annotation: 'metadata object' };
        }
        return {
          fn: (x) => metaValue(outMetaSource(x).getMeta(key)),
          constant: false,
          annotation: `metadata value \`${key}\``,
        };
      }
      case 'get': {
        const target = this.compile(e.target);
        const read = pathReader(e.path);
        const tf = target.fn;
        const fn: Fn = (x, self) => {
          const v = tf(x, self);
          return typeof v === 'symbol' ? null : read(v);
        };
        const annotation = `field \`${pathText(target.annotation, e.path)}\``;
        return target.constant ? this.fold(fn, e.pos, annotation) : { fn, constant: false, annotation };
      }
      case 'call':
        return this.compileCall(e.name, e.args, e.pos, e.end);
      case 'method':
        return this.compileMethod(e.target, e.name, e.args, e.pos);
      case 'context':
        return this.compileContext(e.target, e.body, e.pos);
      case 'lambda':
        this.fail(e.pos, 'a named context is only allowed as a query argument');
        break;
      case 'not': {
        const op = this.compile(e.operand);
        const of = op.fn;
        const fn: Fn = (x, self) => {
          const v = of(x, self);
          if (typeof v !== 'boolean') throw new TypeMismatchError(['bool'], v, op.annotation);
          return !v;
        };
        return op.constant
          ? this.fold(fn, e.pos, 'boolean literal')
          : { fn, constant: false, annotation: 'not' };
      }
      case 'neg': {
        const op = this.compile(e.operand);
        const of = op.fn;
        const fn: Fn = (x, self) => {
          const v = of(x, self);
          if (typeof v === 'number') return -v;
          if (typeof v === 'bigint') return -v;
          if (v instanceof JsonNumber) return -v.toFiniteNumber();
          throw new TypeMismatchError(['number'], v, op.annotation);
        };
        return op.constant
          ? this.fold(fn, e.pos, 'number literal')
          : { fn, constant: false, annotation: 'arithmetic' };
      }
      case 'binary':
        return this.compileBinary(e.op, e.left, e.right, e.pos, e.source);
      case 'if':
        return this.compileIf(e.branches, e.otherwise);
      case 'match':
        return this.compileMatch(e.subject, e.cases);
    }
    throw new BloblangError('unreachable');
  }

  private compileVar(name: string): Node {
    const slot = this.varSlot(name);
    return {
      fn: (x) => {
        const v = x.vars[slot];
        if (v === undefined) throw new BloblangError(`variable '${name}' undefined`);
        return v;
      },
      constant: false,
      annotation: `variable \`${name}\``,
    };
  }

  private compileArray(items: Expr[], pos: number): Node {
    const nodes = items.map((i) => this.compile(i));
    const fns = nodes.map((n) => n.fn);
    const fn: Fn = (x, self) => {
      const out: Value[] = [];
      for (let i = 0; i < fns.length; i++) {
        const v = fns[i](x, self);
        if (typeof v !== 'symbol') out.push(v);
      }
      return out;
    };
    if (nodes.every((n) => n.constant)) return this.fold(fn, pos, 'array literal');
    return { fn, constant: false, annotation: 'array literal' };
  }

  private compileObject(entries: Array<{ key: Expr; value: Expr }>, pos: number): Node {
    const compiled = entries.map((en) => ({
      key: this.compile(en.key),
      value: this.compile(en.value),
    }));
    const keys = compiled.map((c) => c.key.fn);
    const values = compiled.map((c) => c.value.fn);
    const fn: Fn = (x, self) => {
      const out: ValueObject = {};
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i](x, self);
        const key = typeof k === 'string' ? k : k instanceof Uint8Array ? bytesToString(k) : null;
        if (key === null) {
          throw new BloblangError(`object keys must be strings, received: ${typeName(k)}`);
        }
        const v = values[i](x, self);
        if (typeof v !== 'symbol') setKey(out, key, v);
      }
      return out;
    };
    if (compiled.every((c) => c.key.constant && c.value.constant))
      return this.fold(fn, pos, 'object literal');
    return { fn, constant: false, annotation: 'object literal' };
  }

  private compileContext(targetExpr: Expr, body: Expr, pos: number): Node {
    const target = this.compile(targetExpr);
    const tf = target.fn;
    if (body.kind === 'lambda') {
      const slot = this.labelSlot(body.param);
      const bf = this.compile(body.body).fn;
      return {
        fn: (x, self) => {
          const v = tf(x, self);
          const saved = x.labels[slot];
          x.labels[slot] = v;
          try {
            return bf(x, self);
          } finally {
            x.labels[slot] = saved;
          }
        },
        constant: false,
        annotation: target.annotation,
      };
    }
    const bodyNode = this.compile(body);
    const bf = bodyNode.fn;
    const fn: Fn = (x, self) => bf(x, tf(x, self));
    if (target.constant && bodyNode.constant) return this.fold(fn, pos, bodyNode.annotation);
    return { fn, constant: false, annotation: bodyNode.annotation };
  }

  /** `.catch(err -> ...)`: the lambda's name holds the error message; `this` is unchanged. */
  private compileCatchLambda(tf: Fn, lambda: Expr & { kind: 'lambda' }): Node {
    const slot = this.labelSlot(lambda.param);
    const bf = this.compile(lambda.body).fn;
    return {
      fn: (x, self) => {
        try {
          return tf(x, self);
        } catch (err) {
          const saved = x.labels[slot];
          x.labels[slot] = errorMessage(err);
          try {
            return bf(x, self);
          } finally {
            x.labels[slot] = saved;
          }
        }
      },
      constant: false,
      annotation: 'method catch',
    };
  }

  /** A query argument: compiles to a maker that binds the current execution. */
  private compileQueryArg(e: Expr): { make: (x: Exec, self: Self) => QueryArg; constant: boolean } {
    if (e.kind === 'lambda') {
      const slot = this.labelSlot(e.param);
      const bf = this.compile(e.body).fn;
      return {
        make: (x, self) => (c) => {
          const saved = x.labels[slot];
          x.labels[slot] = c;
          try {
            return bf(x, self) as Value;
          } finally {
            x.labels[slot] = saved;
          }
        },
        constant: false,
      };
    }
    const node = this.compile(e);
    if (node.constant) {
      const v = node.value as Value;
      const q: QueryArg = () => v;
      return { make: () => q, constant: true };
    }
    const bf = node.fn;
    return { make: (x) => (c) => bf(x, c) as Value, constant: false };
  }

  /** Compiles arguments into an evaluator producing the `Args` array for an implementation. */
  private compileArgs(
    params: readonly ParamSpec[],
    args: CallArgs,
    pos: number,
  ): { evaluate: (x: Exec, self: Self) => Args; constant: boolean; fixed: Args | null } {
    const bound = bindArgs(params, args, (m) => this.fail(pos, m));
    const parts = bound.map((expr, i) => {
      const p = params[i];
      if (expr === undefined) {
        const v = p.default;
        return { constant: true, value: v, make: null, fn: null };
      }
      if (p.type === 'query') {
        const q = this.compileQueryArg(expr);
        return { constant: false, value: undefined, make: q.make, fn: null };
      }
      const node = this.compile(expr);
      if (node.constant) {
        let v: Value | undefined;
        try {
          v = coerceArg(p, node.value);
        } catch (err) {
          this.fail(expr.pos, errorMessage(err));
        }
        return { constant: true, value: v, make: null, fn: null };
      }
      return { constant: false, value: undefined, make: null, fn: node.fn };
    });
    if (parts.every((p) => p.constant)) {
      const fixed: Args = parts.map((p) => p.value);
      return { evaluate: () => fixed, constant: true, fixed };
    }
    const n = parts.length;
    return {
      evaluate: (x, self) => {
        const out: Args = new Array(n);
        for (let i = 0; i < n; i++) {
          const p = parts[i];
          if (p.constant) out[i] = p.value;
          else if (p.make) out[i] = p.make(x, self);
          else if (p.fn) out[i] = coerceArg(params[i], p.fn(x, self));
        }
        return out;
      },
      constant: false,
      fixed: null,
    };
  }

  private compileCall(name: string, args: CallArgs, pos: number, end: number): Node {
    if (name === 'var' && args.positional.length === 1 && args.positional[0].kind === 'literal') {
      const v = args.positional[0].value;
      if (typeof v === 'string') return this.compileVar(v);
    }
    const def = lookupFunction(name);
    if (!def) this.fail(end, `unrecognised function '${name}'`);
    const { evaluate, constant } = this.compileArgs(paramsFor(def, args), args, pos);
    const impl = def.impl;
    let annotation = `function ${name}`;
    if (name === 'json') {
      const a = args.positional[0] ?? args.named?.[0]?.value;
      annotation =
        a?.kind === 'literal' && typeof a.value === 'string' ? `json path \`${a.value}\`` : 'json path';
    }
    const site = {};
    const fn: Fn = (x, self) => impl(evaluate(x, self), x, site) as Result;
    void constant;
    return { fn, constant: false, annotation };
  }

  private compileMethod(targetExpr: Expr, name: string, args: CallArgs, pos: number): Node {
    const special = CORE_METHODS[name];
    if (special) return this.compileCoreMethod(name, targetExpr, args, pos);
    const def = lookupMethod(name);
    if (!def) this.fail(pos, `unrecognised method '${name}'`);
    const target = this.compile(targetExpr);
    const { evaluate, constant, fixed } = this.compileArgs(paramsFor(def, args), args, pos);
    // A bad constant argument (a regexp RE2 refuses) is a parse error, as in the reference.
    if (fixed !== null && def.checkArgs) {
      try {
        def.checkArgs(fixed);
      } catch (err) {
        this.fail(pos, errorMessage(err));
      }
    }
    const impl = def.impl;
    const tf = target.fn;
    const from = target.annotation;
    const fn: Fn =
      fixed !== null
        ? // Constant arguments (or none, the usual case): no call to evaluate them.
          (x, self) => {
            const t = tf(x, self);
            try {
              return impl(t as Value, fixed, x) as Result;
            } catch (err) {
              throw annotate(err, from);
            }
          }
        : (x, self) => {
            const t = tf(x, self);
            const a = evaluate(x, self);
            try {
              return impl(t as Value, a, x) as Result;
            } catch (err) {
              throw annotate(err, from);
            }
          };
    const annotation = `method ${name}`;
    if (target.constant && constant) return this.fold(fn, pos, annotation);
    return { fn, constant: false, annotation };
  }

  /** Methods that need the compiler: they intercept errors or evaluate in another context. */
  private compileCoreMethod(name: string, targetExpr: Expr, args: CallArgs, pos: number): Node {
    const target =
      name === 'catch' || name === 'or' ? this.compileGuarded(targetExpr) : this.compile(targetExpr);
    const tf = target.fn;
    const annotation = `method ${name}`;
    const params = CORE_METHODS[name];
    const bound = bindArgs(params, args, (m) => this.fail(pos, m));
    switch (name) {
      case 'catch':
      case 'or': {
        const arg = bound[0] as Expr;
        if (name === 'catch' && arg.kind === 'lambda') return this.compileCatchLambda(tf, arg);
        const fallback = this.compile(arg);
        const ff = fallback.fn;
        const isOr = name === 'or';
        return {
          fn: (x, self) => {
            let v: Result;
            try {
              v = tf(x, self);
            } catch {
              return ff(x, self);
            }
            if (isOr && (v === null || typeof v === 'symbol')) return ff(x, self);
            return v;
          },
          constant: false,
          annotation,
        };
      }
      case 'from': {
        const idx = this.compile(bound[0] as Expr);
        if (idx.constant) {
          try {
            coerceArg(params[0], idx.value);
          } catch (err) {
            this.fail(pos, errorMessage(err));
          }
        }
        const idf = idx.fn;
        return {
          fn: (x, self) => {
            let i = Number(coerceArg(params[0], idf(x, self)));
            if (i < 0) i += x.batch.length;
            // Out of range is allowed: functions then see no message (meta() is {}, error() null).
            const sub = new Exec(x.batch, i, x.state, this.varSlots.size);
            sub.vars = x.vars;
            void self;
            return tf(sub, LAZY_THIS);
          },
          constant: false,
          annotation,
        };
      }
      case 'from_all':
        return {
          fn: (x) => {
            const out: Value[] = [];
            for (let i = 0; i < x.batch.length; i++) {
              const sub = new Exec(x.batch, i, x.state, this.varSlots.size);
              sub.vars = x.vars;
              const v = tf(sub, LAZY_THIS);
              out.push(typeof v === 'symbol' ? null : v);
            }
            return out;
          },
          constant: false,
          annotation,
        };
      case 'apply': {
        const nameNode = this.compile(bound[0] as Expr);
        if (nameNode.constant) {
          const mapName = nameNode.value;
          if (typeof mapName !== 'string')
            this.fail(pos, 'field mapping: wrong argument type, expected string');
          if (!this.maps.has(mapName)) this.fail(pos, `map ${mapName} was not found`);
        }
        const nf = nameNode.fn;
        return {
          fn: (x, self) => {
            const t = tf(x, self);
            const mapName = nf(x, self);
            if (typeof mapName !== 'string') throw new TypeMismatchError(['string'], mapName);
            if (t === DELETED || t === NOTHING) return t;
            return this.runMap(x, mapName, t);
          },
          constant: false,
          annotation,
        };
      }
    }
    throw new BloblangError(`unknown core method ${name}`);
  }

  private compileBinary(op: BinaryOp, leftExpr: Expr, rightExpr: Expr, pos: number, source: string): Node {
    const left = op === '|' ? this.compileGuarded(leftExpr) : this.compile(leftExpr);
    const right = op === '&&' || op === '||' ? this.compileGuarded(rightExpr) : this.compile(rightExpr);
    const lf = left.fn;
    const rf = right.fn;
    const la = left.annotation;
    const ra = right.annotation;
    let fn: Fn;
    switch (op) {
      case '|':
        fn = (x, self) => {
          let v: Result;
          try {
            v = lf(x, self);
          } catch {
            return rf(x, self);
          }
          return v === null || typeof v === 'symbol' ? rf(x, self) : v;
        };
        break;
      case '&&':
      case '||': {
        const isAnd = op === '&&';
        const check = (v: Result, ann: string): boolean => {
          if (typeof v !== 'boolean') throw new TypeMismatchError(['bool'], v, ann);
          return v;
        };
        fn = (x, self) => {
          const l = check(lf(x, self), la);
          if (isAnd ? !l : l) return l;
          return check(rf(x, self), ra);
        };
        break;
      }
      case '==':
      case '!=': {
        const equal = op === '==';
        // A constant side (`this.status == "active"`) is read without a call.
        if (right.constant) {
          const rv = right.value as Result;
          fn = (x, self) => deepEqual(lf(x, self), rv) === equal;
        } else {
          fn = (x, self) => deepEqual(lf(x, self), rf(x, self)) === equal;
        }
        break;
      }
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const order = (l: Result, r: Result): number => {
          const c = compareValues(l, r);
          if (c === null) {
            throw new BloblangError(
              `cannot compare types ${typeName(l)} (from ${la}) and ${typeName(r)} (from ${ra})`,
            );
          }
          return c;
        };
        const rc = right.constant;
        const rv = right.value as Result;
        // Two numbers compare directly (NaN orders as equal, as compareValues has it); one closure
        // per operator, so no call decides the outcome.
        switch (op) {
          case '<':
            fn = (x, self) => {
              const l = lf(x, self);
              const r = rc ? rv : rf(x, self);
              return typeof l === 'number' && typeof r === 'number' ? l < r : order(l, r) < 0;
            };
            break;
          case '<=':
            fn = (x, self) => {
              const l = lf(x, self);
              const r = rc ? rv : rf(x, self);
              return typeof l === 'number' && typeof r === 'number' ? !(l > r) : order(l, r) <= 0;
            };
            break;
          case '>':
            fn = (x, self) => {
              const l = lf(x, self);
              const r = rc ? rv : rf(x, self);
              return typeof l === 'number' && typeof r === 'number' ? l > r : order(l, r) > 0;
            };
            break;
          default:
            fn = (x, self) => {
              const l = lf(x, self);
              const r = rc ? rv : rf(x, self);
              return typeof l === 'number' && typeof r === 'number' ? !(l < r) : order(l, r) >= 0;
            };
        }
        break;
      }
      default: {
        const verb = BINARY_VERBS[op] as string;
        const numeric =
          op === '+'
            ? addNumbers
            : op === '-'
              ? subNumbers
              : op === '*'
                ? mulNumbers
                : op === '/'
                  ? divNumbers
                  : modNumbers;
        const isAdd = op === '+';
        const rc = right.constant;
        const rv = right.value as Result;
        fn = (x, self) => {
          const l = lf(x, self);
          const r = rc ? rv : rf(x, self);
          if (typeof l === 'number' && typeof r === 'number' && isAdd) {
            const s = l + r;
            if (Number.isSafeInteger(s) || !Number.isInteger(s)) return s;
          }
          const ln = typeof l === 'number' || typeof l === 'bigint';
          const rn = typeof r === 'number' || typeof r === 'bigint';
          if (ln && rn) return numeric(l, r);
          // A JSON number kept as text computes as its float64 (an error when that overflows).
          if ((ln || l instanceof JsonNumber) && (rn || r instanceof JsonNumber))
            return numeric(
              asNumeric(l as number | bigint | JsonNumber),
              asNumeric(r as number | bigint | JsonNumber),
            );
          if (
            isAdd &&
            (typeof l === 'string' || l instanceof Uint8Array) &&
            (typeof r === 'string' || r instanceof Uint8Array)
          ) {
            return concat(l, r);
          }
          throw new BloblangError(
            `cannot ${verb} types ${typeName(l)} (from ${la}) and ${typeName(r)} (from ${ra}): ${source}`,
          );
        };
      }
    }
    if (left.constant && right.constant) return this.fold(fn, pos, literalAnnotationOp(op));
    return { fn, constant: false, annotation: 'arithmetic' };
  }

  private compileIf(branches: Array<{ cond: Expr; body: Expr }>, otherwise: Expr | null): Node {
    const compiled = branches.map((b) => ({
      cond: this.compile(b.cond).fn,
      body: this.compileGuarded(b.body).fn,
    }));
    const elseFn = otherwise ? this.compileGuarded(otherwise).fn : null;
    return {
      fn: (x, self) => {
        for (const b of compiled) {
          if (isTruthyCondition(b.cond(x, self), 'if expression')) return b.body(x, self);
        }
        return elseFn ? elseFn(x, self) : NOTHING;
      },
      constant: false,
      annotation: 'if expression',
    };
  }

  private compileMatch(subjectExpr: Expr | null, cases: Array<{ pattern: Expr | null; body: Expr }>): Node {
    const subject = subjectExpr ? this.compile(subjectExpr).fn : null;
    const compiled = cases.map((c) => {
      const pattern = c.pattern ? this.compile(c.pattern) : null;
      return {
        isDefault: pattern === null,
        literal: pattern?.constant === true,
        value: pattern?.value,
        test: pattern?.fn ?? null,
        body: this.compileGuarded(c.body).fn,
      };
    });
    return {
      fn: (x, self) => {
        const ctx: Self = subject ? subject(x, self) : self;
        let resolved: Result | undefined;
        for (const c of compiled) {
          if (c.isDefault) return c.body(x, ctx);
          if (c.literal) {
            resolved ??= resolveSelf(x, ctx);
            if (deepEqual(resolved, c.value)) return c.body(x, ctx);
            continue;
          }
          const r = (c.test as Fn)(x, ctx);
          if (r === true) return c.body(x, ctx);
          if (r === false || r === null) continue;
          resolved ??= resolveSelf(x, ctx);
          if (deepEqual(resolved, r)) return c.body(x, ctx);
        }
        return NOTHING;
      },
      constant: false,
      annotation: 'match expression',
    };
  }
}

function literalAnnotationOp(op: BinaryOp): string {
  return op === '==' || op === '!=' || op === '&&' || op === '||' || op.startsWith('<') || op.startsWith('>')
    ? 'boolean literal'
    : 'number literal';
}

/** Adds the expression a method ran on to its error, the way the reference reports it. */
function annotate(err: unknown, from: string): unknown {
  if (!(err instanceof Error) || annotated.has(err)) return err;
  let out: Error;
  if (err instanceof TypeMismatchError) out = err.from ? err : err.withFrom(from);
  else out = new BloblangError(`${from}: ${err.message}`);
  annotated.add(out);
  return out;
}

function ensureOut(x: Exec) {
  if (x.out === null) x.out = x.msg.copy();
  return x.out;
}

/** Where `@` reads from: the message being built, or the input when there is none yet. */
function outMetaSource(x: Exec) {
  return x.out ?? x.msg;
}

export function metaValue(v: unknown): Value {
  if (v === undefined) return null;
  return v as Value;
}

function metaObject(x: Exec): Value {
  const out: ValueObject = {};
  for (const [k, v] of outMetaSource(x).metadata()) setKey(out, k, metaValue(v));
  return out;
}
