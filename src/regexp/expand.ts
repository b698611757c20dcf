// Go's Regexp.Expand template for replacements: $1, ${1}, $name, ${name} and $$. A `$` that
// starts none of these is kept as text; a group that does not exist or took no part is empty.
import type { Match } from './pattern.js';

const NAME = /^[A-Za-z0-9_]+/;

export function expandTemplate(template: string, match: Match, names: readonly string[]): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '$' || i + 1 >= template.length) {
      out += c;
      continue;
    }
    if (template[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    let end: number;
    if (template[i + 1] === '{') {
      const close = template.indexOf('}', i + 2);
      name = close < 0 ? '' : template.slice(i + 2, close);
      if (close < 0 || !NAME.test(name) || NAME.exec(name)![0] !== name) {
        out += c;
        continue;
      }
      end = close;
    } else {
      const m = NAME.exec(template.slice(i + 1));
      if (!m) {
        out += c;
        continue;
      }
      name = m[0];
      end = i + name.length;
    }
    i = end;
    out += groupText(name, match, names);
  }
  return out;
}

function groupText(name: string, match: Match, names: readonly string[]): string {
  if (/^\d+$/.test(name)) return match.groups[Number(name)] ?? '';
  const index = names.indexOf(name);
  return index > 0 ? (match.groups[index] ?? '') : '';
}
