// A block scalar (`|` or `>`) that ends the file without a final line break: Go's YAML (which the
// reference reads test definitions with) gives its text without a trailing "\n"; the `yaml`
// package adds one. Test expectations such as `content_equals: |` at the end of a file would
// otherwise never match, so definitions are read the Go way.
import { isScalar, visit } from 'yaml';
import type { ParsedYaml } from '../../config/yaml_document.js';

export function clipFinalBlockScalar(parsed: ParsedYaml, text: string): void {
  if (text.endsWith('\n')) return;
  visit(parsed.doc, {
    Scalar(_key, node) {
      if (!isScalar(node) || (node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED')) return;
      const range = node.range;
      if (!range || range[1] < text.length) return;
      const header = /^[|>][-+0-9]*/.exec(text.slice(range[0]))?.[0] ?? '';
      if (header.includes('+')) return;
      if (typeof node.value === 'string' && node.value.endsWith('\n')) node.value = node.value.slice(0, -1);
    },
  });
}
