// A compiled mapping run with the reference processors' semantics (`mapping`, `mutation`, query).
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Message } from '../message/message.js';
import type { Program } from './ast.js';
import { type CompiledProgram, Compiler, type StatementFn } from './compiler.js';
import { BloblangParseError, MappingError } from './errors.js';
import { Exec, structuredOf } from './exec.js';
import { parseError } from './lexer.js';
import { DELETED, NOTHING, type Value } from './library.js';
import { parseProgram } from './parser.js';
import { type Result, unserialisableReason } from './value.js';

export interface CompileOptions {
  importDir?: string;
}

function toMappingError(e: unknown): MappingError {
  if (e instanceof MappingError) return e;
  return new MappingError(e instanceof Error ? e.message : String(e));
}

/**
 * Sets a message's payload from a mapping result without re-encoding structured values. A result
 * JSON cannot carry (NaN, ±Inf, nesting beyond MAX_DEPTH) fails the mapping here, so the message
 * is flagged where `catch` can see it instead of failing later in an output's writer.
 */
export function setPayload(msg: Message, v: Result): void {
  if (typeof v === 'string' || v instanceof Uint8Array) msg.setBytes(v);
  else {
    const why = unserialisableReason(v);
    if (why !== null) throw new MappingError(`the result cannot be serialised: ${why}`);
    msg.setStructured(typeof v === 'symbol' ? null : v);
  }
}

export class CompiledMapping {
  /** Per-instance state for stateful functions such as `counter()`. */
  private readonly state = new Map<unknown, unknown>();
  private readonly statements: readonly StatementFn[];
  private readonly varCount: number;

  constructor(program: CompiledProgram) {
    this.statements = program.statements;
    this.varCount = program.varCount;
  }

  private run(x: Exec): void {
    const statements = this.statements;
    try {
      for (let i = 0; i < statements.length; i++) statements[i]!(x);
    } catch (e) {
      throw toMappingError(e);
    }
  }

  /**
   * A new execution per run: cheaper than reusing one, whose fields would then point from an old
   * object to young ones (a write barrier on every store).
   */
  private exec(batch: readonly Message[], index: number): Exec {
    return new Exec(batch, index, this.state, this.varCount);
  }

  apply(batch: readonly Message[], index: number): Message | null {
    const x = this.exec(batch, index);
    const out = batch[index]!.copy();
    x.out = out;
    this.run(x);
    const root = x.root;
    // `typeof` first: comparing any value with a symbol is a call, asking its type is not.
    if (typeof root === 'symbol') return root === DELETED ? null : out;
    setPayload(out, root);
    return out;
  }

  applyMutation(batch: readonly Message[], index: number): Message | null {
    const msg = batch[index]!;
    const x = this.exec(batch, index);
    x.out = msg.copy();
    let start: Result;
    try {
      start = msg.structured() as Value;
    } catch {
      start = msg.bytes();
    }
    x.root = start;
    if (typeof start !== 'object' || start instanceof Uint8Array) {
      // not a container: reading `this` must still report the parse error like `mapping` does
    } else {
      x.setThis(start);
    }
    this.run(x);
    const end: Result = x.root as Result;
    if (end === DELETED) return null;
    const out = x.out;
    if (end !== start && end !== NOTHING) setPayload(out, end);
    return out;
  }

  /**
   * The reference's MapOnto (used by `branch`): queries (`this`, `content()`, `metadata()`) read
   * batch[index] while assignments edit a copy of `target`, whose parsed content (when it is
   * JSON) is the starting root and whose metadata `meta` writes and `@` reads.
   */
  applyOnto(target: Message, batch: readonly Message[], index: number): Message | null {
    const x = this.exec(batch, index);
    x.out = target.copy();
    let start: Result = NOTHING;
    try {
      start = target.structured() as Value;
    } catch {
      // not JSON (or empty): assignments start from nothing, as in the reference
    }
    x.root = start;
    this.run(x);
    const end: Result = x.root as Result;
    if (end === DELETED) return null;
    if (end !== start && end !== NOTHING) setPayload(x.out, end);
    return x.out;
  }

  query(batch: readonly Message[], index: number): Value {
    const x = this.exec(batch, index);
    this.run(x);
    const r = x.root;
    return r === NOTHING || r === DELETED ? null : r;
  }

  /** Evaluates against an arbitrary value as `this` (for tests and the CLI). */
  queryValue(batch: readonly Message[], index: number, value: Value): Result {
    const x = this.exec(batch, index);
    x.setThis(value);
    this.run(x);
    return x.root;
  }
}

/**
 * Compiled programs by mapping text, so many streams sharing one mapping (and the linter checking
 * it first) compile it once. Programs are stateless (state lives in each CompiledMapping); mappings
 * with imports are never cached (the files may change). Bounded: the oldest entry goes first.
 */
const programCache = new Map<string, CompiledProgram>();
const PROGRAM_CACHE_ENTRIES = 256;
const PROGRAM_CACHE_MAX_TEXT = 16 * 1024;

export function compileMapping(text: string, options: CompileOptions = {}): CompiledMapping {
  const cached = programCache.get(text);
  if (cached) return new CompiledMapping(cached);
  let imported = false;
  const program = compileProgramText(text, options, () => {
    imported = true;
  });
  if (!imported && text.length <= PROGRAM_CACHE_MAX_TEXT) {
    if (programCache.size >= PROGRAM_CACHE_ENTRIES)
      programCache.delete(programCache.keys().next().value as string);
    programCache.set(text, program);
  }
  return new CompiledMapping(program);
}

function compileProgramText(text: string, options: CompileOptions, onImport: () => void): CompiledProgram {
  const baseDir = options.importDir ?? process.cwd();
  const loading = new Set<string>();
  const loadFile = (dir: string, path: string, pos: number, src: string): Program => {
    onImport();
    const full = isAbsolute(path) ? path : resolve(dir, path);
    let content: string;
    try {
      content = readFileSync(full, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why =
        code === 'ENOENT' ? 'no such file or directory' : e instanceof Error ? e.message : String(e);
      throw parseError(src, pos, `failed to read import: open ${path}: ${why}`);
    }
    if (loading.has(full)) throw parseError(src, pos, `import cycle detected: ${path}`);
    loading.add(full);
    try {
      return parseProgram(content, { loadFile: (p, at) => loadFile(dirname(full), p, at, content) });
    } catch (e) {
      if (e instanceof BloblangParseError)
        throw parseError(src, pos, `failed to parse import ${path}: ${e.message}`);
      throw e;
    } finally {
      loading.delete(full);
    }
  };
  const program = parseProgram(text, { loadFile: (p, at) => loadFile(baseDir, p, at, text) });
  const compiler = new Compiler(text);
  return compiler.compileProgram(program);
}

/** Reads the structured content of a message with the mapping error text on failure. */
export function readStructured(msg: Message): Value {
  return structuredOf(msg);
}
