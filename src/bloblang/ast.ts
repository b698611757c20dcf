// Syntax tree produced by the parser and consumed once by the compiler.
import type { Value } from './library.js';

export interface Pos {
  /** Offset into the mapping text, for error positions. */
  pos: number;
}

export type Expr =
  | ({ kind: 'literal'; value: Value } & Pos)
  | ({ kind: 'array'; items: Expr[] } & Pos)
  | ({ kind: 'object'; entries: Array<{ key: Expr; value: Expr }> } & Pos)
  /** `this` (path empty) or `this.a.b`; bare `a.b` in a query also lands here. */
  | ({ kind: 'this'; path: string[] } & Pos)
  /** `root.a.b` read inside a query: the document built so far. */
  | ({ kind: 'root'; path: string[] } & Pos)
  /** A named context from `x -> ...`. */
  | ({ kind: 'label'; name: string; path: string[] } & Pos)
  | ({ kind: 'var'; name: string } & Pos)
  /** `@key`, or `@` (key null) for all metadata of the message being built. */
  | ({ kind: 'meta'; key: string | null } & Pos)
  /** Field access on an arbitrary expression: `(expr).a.b`, `$v.a`. */
  | ({ kind: 'get'; target: Expr; path: string[] } & Pos)
  | ({ kind: 'call'; name: string; args: CallArgs; end: number } & Pos)
  | ({ kind: 'method'; target: Expr; name: string; args: CallArgs } & Pos)
  /** `target.(body)` or `target.(x -> body)`: evaluate body with target as context. */
  | ({ kind: 'context'; target: Expr; body: Expr } & Pos)
  /** `x -> body`: a named context; valid as a query argument or context body. */
  | ({ kind: 'lambda'; param: string; body: Expr } & Pos)
  | ({ kind: 'not'; operand: Expr } & Pos)
  | ({ kind: 'neg'; operand: Expr } & Pos)
  | ({ kind: 'binary'; op: BinaryOp; left: Expr; right: Expr; source: string } & Pos)
  | ({ kind: 'if'; branches: Array<{ cond: Expr; body: Expr }>; otherwise: Expr | null } & Pos)
  | ({ kind: 'match'; subject: Expr | null; cases: MatchCase[] } & Pos);

export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '|'
  | '+'
  | '-'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '&&'
  | '||';

export interface MatchCase {
  /** null for the `_` default case. */
  pattern: Expr | null;
  body: Expr;
}

export interface CallArgs {
  positional: Expr[];
  /** Named arguments in source order; null when arguments are positional. */
  named: Array<{ name: string; value: Expr }> | null;
}

export type Target =
  | { kind: 'root'; path: string[] }
  | { kind: 'meta'; key: string | null }
  | { kind: 'let'; name: string };

export type Statement =
  | ({ kind: 'assign'; target: Target; value: Expr; line: number } & Pos)
  | ({
      kind: 'if';
      branches: Array<{ cond: Expr; body: Statement[] }>;
      otherwise: Statement[] | null;
      line: number;
    } & Pos);

export interface MapDecl {
  name: string;
  body: Statement[];
}

export interface Program {
  statements: Statement[];
  maps: Map<string, MapDecl>;
}
