// One file (over 400 lines): a recursive-descent parser whose rules call each other; split, they would import in a cycle.
// Hand-written recursive-descent/Pratt parser from tokens to the syntax tree in ast.ts.
// Error texts follow the reference parser's wording (`line 1 char 5: expected =`).
import type { BinaryOp, CallArgs, Expr, MapDecl, MatchCase, Program, Statement, Target } from './ast.js';
import { BloblangParseError } from './errors.js';
import { lineCol, parseError, type Token, tokenize } from './lexer.js';

/** Binding power of each binary operator; higher binds tighter. */
const PRECEDENCE: Record<string, number> = {
  '&&': 1,
  '||': 1,
  '==': 2,
  '!=': 2,
  '<': 2,
  '<=': 2,
  '>': 2,
  '>=': 2,
  '+': 3,
  '-': 3,
  '*': 4,
  '/': 4,
  '%': 4,
  '|': 4,
};

/** Deep nesting beyond this is refused rather than risking a stack overflow. */
const MAX_NESTING = 500;

export interface ParsedImport {
  /** Path as written in the `import`/`from` statement. */
  path: string;
  pos: number;
}

export interface ParserHooks {
  /** Reads and parses another mapping file for `import`/`from`; returns its program. */
  loadFile(path: string, pos: number): Program;
}

export class Parser {
  private readonly tokens: Token[];
  private i = 0;
  /** >0 while inside brackets, where line breaks are plain whitespace. */
  private nlFree = 0;
  private depth = 0;
  private labels: string[] = [];

  constructor(
    private readonly text: string,
    private readonly hooks?: ParserHooks,
  ) {
    this.tokens = tokenize(text);
  }

  private get tok(): Token {
    return this.tokens[this.i];
  }

  private peek(n = 1): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)];
  }

  private fail(message: string, tok: Token = this.tok): never {
    throw parseError(this.text, tok.pos, message);
  }

  private isPunct(text: string, tok: Token = this.tok): boolean {
    return tok.kind === 'punct' && tok.text === text;
  }

  private expectPunct(text: string, message = `required: expected ${text}`): Token {
    const t = this.tok;
    if (!this.isPunct(text)) this.fail(message);
    this.i++;
    return t;
  }

  private atEof(): boolean {
    return this.tokens[this.i].kind === 'eof';
  }

  private isIdent(name: string, tok: Token = this.tok): boolean {
    return tok.kind === 'ident' && tok.text === name;
  }

  /** `(` right after the previous token: a function call, not a statement keyword. */
  private isCallOpen(tok: Token): boolean {
    return this.isPunct('(', tok) && !tok.ws;
  }

  private line(tok: Token): number {
    return lineCol(this.text, tok.pos).line;
  }

  // -------------------------------------------------------------------------
  // Program and statements

  parseProgram(): Program {
    const program: Program = { statements: [], maps: new Map() };
    if (this.tok.kind === 'eof') this.fail('expected import, map, or assignment', { ...this.tok, pos: 0 });
    let first = true;
    while (!this.atEof()) {
      if (!first && !this.tok.nl) this.fail('expected line break');
      const t = this.tok;
      if (this.isIdent('map') && (this.peek().kind !== 'punct' || this.isPunct('{', this.peek()))) {
        this.parseMapDecl(program);
      } else if (this.isIdent('import') && this.peek().kind === 'string') {
        this.i++;
        const pathTok = this.tok;
        this.i++;
        const imported = this.load(pathTok);
        for (const [name, decl] of imported.maps) {
          if (program.maps.has(name)) this.fail(`map name collision: ${name}`, t);
          program.maps.set(name, decl);
        }
      } else if (this.isIdent('from') && this.peek().kind === 'string' && first) {
        this.i++;
        const pathTok = this.tok;
        this.i++;
        const loaded = this.load(pathTok);
        if (!this.atEof()) {
          if (!this.tok.nl) this.fail('expected line break');
          this.fail('expected end of input');
        }
        return loaded;
      } else {
        const stmt = this.parseStatement(first, true);
        if (stmt === 'shorthand' || stmt === null) return program;
        program.statements.push(stmt);
      }
      first = false;
    }
    return program;
  }

  private load(pathTok: Token): Program {
    if (!this.hooks) this.fail('imports are not supported here', pathTok);
    return this.hooks.loadFile(pathTok.text, pathTok.pos);
  }

  private parseMapDecl(program: Program): void {
    const mapTok = this.tok;
    this.i++;
    const nameTok = this.tok;
    let name: string;
    if (nameTok.kind === 'ident' || nameTok.kind === 'string') name = nameTok.text;
    else this.fail('required: expected map name');
    this.i++;
    if (program.maps.has(name)) this.fail(`map name collision: ${name}`, mapTok);
    this.expectPunct('{');
    const body = this.parseBlockStatements(false);
    const decl: MapDecl = { name, body };
    program.maps.set(name, decl);
  }

  /** Statements up to a closing `}` (which is consumed). */
  private parseBlockStatements(allowMeta: boolean): Statement[] {
    const out: Statement[] = [];
    const savedNl = this.nlFree;
    this.nlFree = 0;
    let first = true;
    while (!this.isPunct('}')) {
      if (this.tok.kind === 'eof') this.fail('required: expected }');
      if (!first && !this.tok.nl) this.fail('expected line break');
      const stmt = this.parseStatement(false, allowMeta);
      if (stmt && stmt !== 'shorthand') out.push(stmt);
      first = false;
    }
    this.i++;
    this.nlFree = savedNl;
    return out;
  }

  /**
   * One statement. When `first`, a bare query is accepted as shorthand for `root = <query>`;
   * the parsed statement is then pushed by the caller and 'shorthand' returned at the end.
   */
  private parseStatement(first: boolean, allowMeta: boolean): Statement | 'shorthand' | null {
    const t = this.tok;
    const line = this.line(t);
    if (this.isIdent('let')) {
      this.i++;
      const nameTok = this.tok;
      if (nameTok.kind !== 'ident' && nameTok.kind !== 'string')
        this.fail('required: expected variable name');
      this.i++;
      if (!this.isPunct('=')) this.fail(this.tok.ws ? 'expected =' : 'expected whitespace');
      this.i++;
      return this.assignment({ kind: 'let', name: nameTok.text }, t, line);
    }
    // `meta.x = ` assigns a field named meta, and `meta("k")` starts a query (the reference wants
    // whitespace after the keyword of a meta assignment).
    if (this.isIdent('meta') && !this.isPunct('.', this.peek()) && !this.isCallOpen(this.peek())) {
      if (!allowMeta) this.fail('setting meta fields is not allowed within this block');
      this.i++;
      let key: string | null = null;
      if (this.tok.kind === 'ident' || this.tok.kind === 'string') {
        key = this.tok.text;
        this.i++;
      }
      this.expectPunct('=', 'expected =');
      return this.assignment({ kind: 'meta', key }, t, line);
    }
    if (t.kind === 'meta') {
      if (!allowMeta) this.fail('setting meta fields is not allowed within this block');
      if (this.isPunct('=', this.peek())) {
        this.i += 2;
        return this.assignment({ kind: 'meta', key: t.text === '' ? null : t.text }, t, line);
      }
    }
    if (this.isIdent('if')) return this.parseIfStatement(allowMeta);
    if (t.kind === 'ident') {
      const start = this.i;
      const path = this.tryTargetPath();
      if (path && this.isPunct('=')) {
        this.i++;
        const rootPath = path[0] === 'root' ? path.slice(1) : path;
        return this.assignment({ kind: 'root', path: rootPath }, t, line);
      }
      this.i = start;
      if (!first) this.fail('expected import, map, or assignment', t);
      const query = this.parseExpr();
      const end = this.i;
      if (this.tok.kind === 'eof') return this.shorthand(query, t, line);
      if (path && end === start + path.length * 2 - 1) this.fail('expected =');
      this.failShorthand(t);
    }
    if (!first) this.fail('expected import, map, or assignment', t);
    const query = this.parseExpr();
    if (this.tok.kind === 'eof') return this.shorthand(query, t, line);
    this.failShorthand(t);
  }

  private shorthandStatements: Statement[] | null = null;

  private shorthand(query: Expr, t: Token, line: number): 'shorthand' {
    this.shorthandStatements = [
      { kind: 'assign', target: { kind: 'root', path: [] }, value: query, line, pos: t.pos },
    ];
    return 'shorthand';
  }

  /** True when the mapping's first token is `if` (a statement or, alone, an if expression). */
  startsWithIf(): boolean {
    return this.isIdent('if', this.tokens[0]);
  }

  /** The whole mapping read as one query: shorthand for `root = <query>`. */
  parseWholeShorthand(): Statement {
    const t = this.tok;
    const query = this.parseExpr();
    if (this.tok.kind !== 'eof') this.failShorthand(t);
    return {
      kind: 'assign',
      target: { kind: 'root', path: [] },
      value: query,
      line: this.line(t),
      pos: t.pos,
    };
  }

  /** The statement a whole-mapping query turned into, if any. */
  takeShorthand(): Statement[] | null {
    return this.shorthandStatements;
  }

  private failShorthand(start: Token): never {
    let src = this.text.slice(start.pos, this.tokens[this.i - 1].end).trim();
    if (src.length > 15) src = `${src.slice(0, 12)}...`;
    this.fail(
      `expected the mapping to end here as the beginning is shorthand for \`root = ${src}\`, but this shorthand form cannot be followed with more assignments`,
    );
  }

  /** `root.a."b".0` style assignment path, or null when the tokens do not form one. */
  private tryTargetPath(): string[] | null {
    if (this.tok.kind !== 'ident') return null;
    const path = [this.tok.text];
    this.i++;
    while (this.isPunct('.') && !this.tok.ws) {
      const seg = this.peek();
      if ((seg.kind !== 'ident' && seg.kind !== 'string') || seg.ws) return null;
      path.push(seg.text);
      this.i += 2;
    }
    return path;
  }

  private assignment(target: Target, t: Token, line: number): Statement {
    const value = this.parseExpr();
    if (this.tok.kind !== 'eof' && !this.tok.nl && !this.isPunct('}')) this.fail('expected line break');
    return { kind: 'assign', target, value, line, pos: t.pos };
  }

  private parseIfStatement(allowMeta: boolean): Statement {
    const t = this.tok;
    const line = this.line(t);
    const branches: Array<{ cond: Expr; body: Statement[] }> = [];
    let otherwise: Statement[] | null = null;
    this.i++;
    const cond = this.parseExpr();
    this.expectPunct('{');
    branches.push({ cond, body: this.parseBlockStatements(allowMeta) });
    while (this.isIdent('else')) {
      this.i++;
      if (this.isIdent('if')) {
        this.i++;
        const c = this.parseExpr();
        this.expectPunct('{');
        branches.push({ cond: c, body: this.parseBlockStatements(allowMeta) });
        continue;
      }
      this.expectPunct('{');
      otherwise = this.parseBlockStatements(allowMeta);
      break;
    }
    return { kind: 'if', branches, otherwise, line, pos: t.pos };
  }

  // -------------------------------------------------------------------------
  // Expressions

  parseWholeQuery(endMessage: string): Expr {
    const expr = this.parseQueryOrFail();
    if (this.tok.kind !== 'eof') this.fail(endMessage);
    return expr;
  }

  parseExpr(minPrec = 0): Expr {
    if (++this.depth > MAX_NESTING) this.fail('mapping is nested too deeply');
    const entryDepth = this.depth;
    let left = this.parseUnary();
    for (;;) {
      const t = this.tok;
      if (t.kind !== 'punct' || (t.nl && this.nlFree === 0)) break;
      const prec = PRECEDENCE[t.text];
      if (prec === undefined || prec <= minPrec) break;
      // Each operator of a chain nests the tree one level deeper (left-associative): count it.
      if (++this.depth > MAX_NESTING) this.fail('mapping is nested too deeply');
      this.i++;
      const right = this.parseExpr(prec);
      const source = this.text.slice(exprStart(left), this.tokens[this.i - 1].end);
      left = { kind: 'binary', op: t.text as BinaryOp, left, right, pos: t.pos, source };
    }
    this.depth = entryDepth - 1;
    return left;
  }

  private parseUnary(): Expr {
    const t = this.tok;
    if (this.isPunct('!') || this.isPunct('-')) {
      // Prefix operators recurse too: `!!!…` must hit the same limit as brackets.
      if (++this.depth > MAX_NESTING) this.fail('mapping is nested too deeply');
      const operand = this.parseUnaryOperand(t);
      this.depth--;
      return operand;
    }
    return this.parsePostfix(this.parsePrimary());
  }

  /** The operand of the prefix `!` or `-` at token t. */
  private parseUnaryOperand(t: Token): Expr {
    this.i++;
    const operand = this.parseUnary();
    if (t.text === '!') return { kind: 'not', operand, pos: t.pos };
    if (
      operand.kind === 'literal' &&
      (typeof operand.value === 'number' || typeof operand.value === 'bigint')
    ) {
      return { kind: 'literal', value: -operand.value, pos: t.pos };
    }
    return { kind: 'neg', operand, pos: t.pos };
  }

  private parsePostfix(base: Expr): Expr {
    let expr = base;
    const entryDepth = this.depth;
    while (this.isPunct('.') && !(this.tok.nl && this.nlFree === 0)) {
      // Each method or context step wraps the tree once more: a chain counts as nesting.
      if (++this.depth > MAX_NESTING) this.fail('mapping is nested too deeply');
      const dot = this.tok;
      const next = this.peek();
      if (next.kind === 'ident' && this.isPunct('(', this.peek(2)) && !this.peek(2).ws) {
        this.i += 3;
        const args = this.parseArgs();
        expr = { kind: 'method', target: expr, name: next.text, args, pos: next.pos };
        continue;
      }
      if (next.kind === 'ident' || next.kind === 'string') {
        this.i += 2;
        expr = appendPath(expr, next.text, dot.pos);
        continue;
      }
      if (next.kind === 'punct' && next.text === '(') {
        this.i += 2;
        this.nlFree++;
        const body = this.parseContextBody();
        this.nlFree--;
        this.expectPunct(')', 'required: expected closing bracket');
        expr = { kind: 'context', target: expr, body, pos: dot.pos };
        continue;
      }
      this.i++;
      this.fail('required: expected method or field path');
    }
    this.depth = entryDepth;
    return expr;
  }

  /** Body of `.( ... )`: a query, or `name -> query` binding the context to a label. */
  private parseContextBody(): Expr {
    if (this.tok.kind === 'ident' && this.isPunct('->', this.peek())) return this.parseLambda();
    if (this.isPunct(')')) this.fail('required: expected query');
    return this.parseQueryOrFail();
  }

  private parseQueryOrFail(): Expr {
    if (!this.startsTerm()) this.fail('required: expected query');
    return this.parseExpr();
  }

  private startsTerm(): boolean {
    const t = this.tok;
    if (t.kind === 'eof') return false;
    if (t.kind !== 'punct') return true;
    return t.text === '(' || t.text === '[' || t.text === '{' || t.text === '!' || t.text === '-';
  }

  private parseLambda(): Expr {
    const t = this.tok;
    const name = t.text;
    if (name === 'this' || name === 'root') this.fail(`context label \`${name}\` is not allowed`);
    if (this.labels.includes(name)) this.fail(`context label \`${name}\` would shadow a parent context`);
    this.i += 2;
    if (this.tok.kind === 'ident' && this.isPunct('->', this.peek())) {
      const innerTok = this.tok;
      this.parseLambda();
      this.fail(
        `it would be in poor taste to capture the same context under both '${name}' and '${innerTok.text}'`,
        t,
      );
    }
    this.labels.push(name);
    const body = this.parseQueryOrFail();
    this.labels.pop();
    return { kind: 'lambda', param: name, body, pos: t.pos };
  }

  private parseArgs(): CallArgs {
    const positional: Expr[] = [];
    let named: Array<{ name: string; value: Expr }> | null = null;
    this.nlFree++;
    while (!this.isPunct(')')) {
      if (this.tok.kind === 'ident' && this.isPunct(':', this.peek())) {
        if (positional.length > 0) this.fail('cannot mix named and nameless arguments');
        const name = this.tok.text;
        this.i += 2;
        if (this.isPunct(')') || this.isPunct(',')) this.fail('required: expected argument value');
        named ??= [];
        named.push({ name, value: this.parseArgValue() });
      } else {
        if (named) this.fail('cannot mix named and nameless arguments');
        if (!this.startsTerm()) this.fail('required: expected function argument');
        positional.push(this.parseArgValue());
      }
      if (this.isPunct(',')) {
        this.i++;
        continue;
      }
      if (!this.isPunct(')')) this.fail('required: expected function argument');
    }
    this.i++;
    this.nlFree--;
    return { positional, named };
  }

  private parseArgValue(): Expr {
    if (this.tok.kind === 'ident' && this.isPunct('->', this.peek())) return this.parseLambda();
    return this.parseExpr();
  }

  private parsePrimary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'number':
        this.i++;
        return { kind: 'literal', value: t.num ?? 0, pos: t.pos };
      case 'string':
        this.i++;
        return { kind: 'literal', value: t.text, pos: t.pos };
      case 'var':
        this.i++;
        return { kind: 'var', name: t.text, pos: t.pos };
      case 'meta':
        this.i++;
        return { kind: 'meta', key: t.text === '' ? null : t.text, pos: t.pos };
      case 'ident':
        return this.parseIdentTerm();
      case 'punct':
        if (t.text === '(') {
          this.i++;
          this.nlFree++;
          const inner = this.parseQueryOrFail();
          this.nlFree--;
          this.expectPunct(')', 'required: expected closing bracket');
          return inner;
        }
        if (t.text === '[') return this.parseArray();
        if (t.text === '{') return this.parseObject();
        break;
    }
    this.fail('required: expected query');
  }

  private parseIdentTerm(): Expr {
    const t = this.tok;
    const name = t.text;
    const next = this.peek();
    if (next.kind === 'punct' && next.text === '(' && !next.ws) {
      this.i += 2;
      const args = this.parseArgs();
      return { kind: 'call', name, args, pos: t.pos, end: this.tokens[this.i - 1].end };
    }
    if (next.kind === 'punct' && next.text === '->') return this.parseLambda();
    switch (name) {
      case 'true':
      case 'false':
        this.i++;
        return { kind: 'literal', value: name === 'true', pos: t.pos };
      case 'null':
        this.i++;
        return { kind: 'literal', value: null, pos: t.pos };
      case 'if':
        return this.parseIfExpr();
      case 'match':
        return this.parseMatch();
      case 'this':
        this.i++;
        return { kind: 'this', path: [], pos: t.pos };
      case 'root':
        this.i++;
        return { kind: 'root', path: [], pos: t.pos };
    }
    this.i++;
    if (this.labels.includes(name)) return { kind: 'label', name, path: [], pos: t.pos };
    return { kind: 'this', path: [name], pos: t.pos };
  }

  private parseArray(): Expr {
    const t = this.tok;
    this.i++;
    this.nlFree++;
    const items: Expr[] = [];
    while (!this.isPunct(']')) {
      if (!this.startsTerm()) this.fail('required: expected query');
      items.push(this.parseExpr());
      if (this.isPunct(',')) this.i++;
      else if (!this.isPunct(']')) this.fail('required: expected ]');
    }
    this.i++;
    this.nlFree--;
    return { kind: 'array', items, pos: t.pos };
  }

  private parseObject(): Expr {
    const t = this.tok;
    this.i++;
    this.nlFree++;
    const entries: Array<{ key: Expr; value: Expr }> = [];
    while (!this.isPunct('}')) {
      if (!this.startsTerm()) this.fail('required: expected object key');
      const key = this.parseExpr();
      if (key.kind === 'literal' && typeof key.value !== 'string') {
        const goType =
          typeof key.value === 'number' && !Number.isInteger(key.value) ? 'float64' : goTypeName(key.value);
        this.fail(`object keys must be strings, received: ${goType}`, { ...this.tok, pos: key.pos });
      }
      this.expectPunct(':', 'required: expected :');
      if (!this.startsTerm()) this.fail('required: expected query');
      entries.push({ key, value: this.parseExpr() });
      if (this.isPunct(',')) this.i++;
      else if (!this.isPunct('}')) this.fail('required: expected }');
    }
    this.i++;
    this.nlFree--;
    return { kind: 'object', entries, pos: t.pos };
  }

  private parseIfExpr(): Expr {
    const t = this.tok;
    this.i++;
    const branches: Array<{ cond: Expr; body: Expr }> = [];
    let otherwise: Expr | null = null;
    const savedNl = this.nlFree;
    this.nlFree = 0;
    const cond = this.parseQueryOrFail();
    branches.push({ cond, body: this.parseBracedQuery() });
    while (this.isIdent('else')) {
      this.i++;
      if (this.isIdent('if')) {
        this.i++;
        const c = this.parseQueryOrFail();
        branches.push({ cond: c, body: this.parseBracedQuery() });
        continue;
      }
      otherwise = this.parseBracedQuery();
      break;
    }
    this.nlFree = savedNl;
    return { kind: 'if', branches, otherwise, pos: t.pos };
  }

  private parseBracedQuery(): Expr {
    this.expectPunct('{');
    this.nlFree++;
    const body = this.parseQueryOrFail();
    this.nlFree--;
    this.expectPunct('}');
    return body;
  }

  private parseMatch(): Expr {
    const t = this.tok;
    this.i++;
    const savedNl = this.nlFree;
    this.nlFree = 0;
    let subject: Expr | null = null;
    if (!this.isPunct('{')) {
      if (!this.startsTerm()) this.fail('required: expected {');
      subject = this.parseExpr();
    }
    this.expectPunct('{');
    const cases: MatchCase[] = [];
    while (!this.isPunct('}')) {
      if (this.tok.kind === 'eof') this.fail('required: expected }');
      let pattern: Expr | null = null;
      if (this.isIdent('_') && this.isPunct('=>', this.peek())) this.i++;
      else pattern = this.parseQueryOrFail();
      this.expectPunct('=>', 'required: expected =>');
      this.nlFree++;
      const body = this.parseQueryOrFail();
      this.nlFree--;
      cases.push({ pattern, body });
      if (this.isPunct(',')) this.i++;
      else if (!this.isPunct('}') && !this.tok.nl) this.fail('required: expected }');
    }
    this.i++;
    this.nlFree = savedNl;
    return { kind: 'match', subject, cases, pos: t.pos };
  }
}

function goTypeName(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint') return 'int64';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return '<nil>';
  return typeof v;
}

function exprStart(expr: Expr): number {
  // A loop, not recursion: operator chains make this tree deep.
  let e = expr;
  for (;;) {
    if (e.kind === 'binary') e = e.left;
    else if (e.kind === 'method' || e.kind === 'get' || e.kind === 'context') e = e.target;
    else return e.pos;
  }
}

/** Adds a field segment to a path-like expression, merging runs of segments. */
function appendPath(expr: Expr, seg: string, pos: number): Expr {
  switch (expr.kind) {
    case 'this':
    case 'root':
    case 'label':
    case 'get':
      return { ...expr, path: [...expr.path, seg] };
    default:
      return { kind: 'get', target: expr, path: [seg], pos };
  }
}

/** Parses a complete mapping. */
export function parseProgram(text: string, hooks?: ParserHooks): Program {
  const parser = new Parser(text, hooks);
  let program: Program;
  try {
    program = parser.parseProgram();
  } catch (err) {
    if (!(err instanceof BloblangParseError) || !parser.startsWithIf()) throw err;
    // Like the reference, a mapping that starts with `if` is also read as one query (an if
    // expression, `root = if c { v } else { w }`); the reading that got further wins.
    return { statements: [shorthandOrFurthest(text, err)], maps: new Map() };
  }
  const shorthand = parser.takeShorthand();
  if (shorthand) program.statements.push(...shorthand);
  return program;
}

function shorthandOrFurthest(text: string, statementError: BloblangParseError): Statement {
  try {
    return new Parser(text).parseWholeShorthand();
  } catch (err) {
    if (!(err instanceof BloblangParseError)) throw err;
    const further =
      err.line > statementError.line ||
      (err.line === statementError.line && err.column > statementError.column);
    throw further ? err : statementError;
  }
}

/** Parses a single query that must span all of `text` (used by interpolations). */
export function parseQuery(text: string, endMessage = 'required: expected end of expression'): Expr {
  const parser = new Parser(text);
  return parser.parseWholeQuery(endMessage);
}
