// Reads every relative import of the TypeScript files under a source directory with the compiler's
// own parser (a regular expression would miss multi-line and dynamic imports), so the layer rules
// can judge each edge.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import from one source file to another, paths relative to the source root with `/`. */
export interface ImportEdge {
  from: string;
  to: string;
  /** As written, for the failure message. */
  specifier: string;
  line: number;
  /** `import type`, `export type`, or every named binding marked `type`: erased at run time. */
  typeOnly: boolean;
  /** `import('…')`: loaded when the call runs, after every static import has loaded. */
  dynamic: boolean;
}

export function sourceFiles(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root)) {
    const full = join(root, entry);
    if (statSync(full).isDirectory()) found.push(...sourceFiles(full));
    else if (entry.endsWith('.ts')) found.push(full);
  }
  return found.sort();
}

/** Every relative import of every `.ts` file under `root` that resolves to another file there. */
export function readImportGraph(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((file) => importsOf(root, file, readFileSync(file, 'utf8')));
}

/** The relative imports of one file's text (exported so a test can feed it a synthetic file). */
export function importsOf(root: string, file: string, text: string): ImportEdge[] {
  const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (literal: ts.Expression | undefined, typeOnly: boolean, dynamic = false) => {
    if (!literal || !ts.isStringLiteral(literal) || !literal.text.startsWith('.')) return;
    const target = resolveTarget(file, literal.text);
    if (!target) return;
    edges.push({
      from: posix(relative(root, file)),
      to: posix(relative(root, target)),
      specifier: literal.text,
      line: parsed.getLineAndCharacterOfPosition(literal.getStart(parsed)).line + 1,
      typeOnly,
      dynamic,
    });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false, true);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal as ts.Expression, true);
    ts.forEachChild(node, visit);
  };
  visit(parsed);
  return edges;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  if (clause.name || !bindings || !ts.isNamedImports(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/** NodeNext specifiers name the emitted `.js`; the source is the `.ts` beside it. */
function resolveTarget(file: string, specifier: string): string | undefined {
  const base = resolve(dirname(file), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.d.ts'), `${base}.ts`];
  return candidates.find((candidate) => existsSync(candidate));
}

function posix(path: string): string {
  return path.split(sep).join('/');
}
