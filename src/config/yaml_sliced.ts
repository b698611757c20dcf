// parseYaml for big API bodies: the `yaml` library's lexer and parser run in time slices, so a
// 1 MiB body (JSON is parsed as YAML flow, ~0.3 s of CPU) never holds the event loop in one go.
// The same lexer, parser and composer as parseDocument, fed the same tokens: the same document.
import { type CST, type Document, LineCounter, Parser } from 'yaml';
import type { TimeSlicer } from '../engine/time_slicer.js';
import { parseSimpleYaml } from './fast_yaml.js';
import { composeOne, goYamlLexer } from './go_yaml.js';
import { checkedDocument, checkNesting, type ParsedYaml, YAML_OPTIONS } from './yaml_document.js';

/** Lexemes handled between looks at the clock. */
const LEXEMES_PER_CHECK = 512;

export async function parseYamlSliced(text: string, slicer: TimeSlicer): Promise<ParsedYaml> {
  const lines = new LineCounter();
  checkNesting(text);
  const doc = parseSimpleYaml(text, lines, YAML_OPTIONS) ?? (await parseDocumentSliced(text, lines, slicer));
  await slicer.pause();
  return checkedDocument(text, doc, lines);
}

/** What parseDocument does, with pauses between lexemes; composing the document is one step. */
async function parseDocumentSliced(text: string, lines: LineCounter, slicer: TimeSlicer): Promise<Document> {
  const options = { ...YAML_OPTIONS, lineCounter: lines };
  const parser = new Parser(lines.addNewLine);
  // Parser.parse announces the first line itself; driving next() directly, it is done here.
  lines.addNewLine(0);
  const tokens: CST.Token[] = [];
  let count = 0;
  for (const lexeme of goYamlLexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (++count % LEXEMES_PER_CHECK === 0) await slicer.pause();
  }
  for (const token of parser.end()) tokens.push(token);
  return composeOne(tokens, text.length, options);
}
