// Go RE2 patterns translated to JS RegExp (cached), plus Go's match iteration and template
// expansion rules, which differ from JS's in small but visible ways.
import { fail } from './support.js';

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
const escapeLiteral = (s: string) =>
  Array.from(s)
    .map((c) => (/[A-Za-z0-9_]/.test(c) ? c : c.codePointAt(0)! < 0x80 ? hex(c) : c))
    .join('');

/** Rewrites RE2 syntax into an equivalent JS pattern for the `u` flag. */
function translate(pattern: string): { source: string; flags: string } {
  let flags = 'u';
  let src = pattern;
  // Leading flag groups such as (?i) or (?ms) become RegExp flags.
  for (let m = /^\(\?([imsU]+)\)/.exec(src); m; m = /^\(\?([imsU]+)\)/.exec(src)) {
    for (const f of m[1]) {
      if (f === 'U') throw fail('error parsing regexp: ungreedy flag (?U) is not supported');
      if (!flags.includes(f)) flags += f;
    }
    src = src.slice(m[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined) throw fail('error parsing regexp: trailing backslash at end of expression: ``');
      if (n === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        const lit = end < 0 ? src.slice(i + 2) : src.slice(i + 2, end);
        out += escapeLiteral(lit);
        i = end < 0 ? src.length : end + 1;
        continue;
      }
      if (!inClass && n === 'A') {
        out += '(?<![\\s\\S])';
        i++;
        continue;
      }
      if (!inClass && n === 'z') {
        out += '(?![\\s\\S])';
        i++;
        continue;
      }
      if (n === 's') {
        out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
        i++;
        continue;
      }
      if (n === 'S') {
        out += inClass ? '\\S' : '[^\\t\\n\\f\\r ]';
        i++;
        continue;
      }
      // A single digit is a backreference, which RE2 does not have (two or three are octal).
      if (/[1-9]/.test(n) && !/[0-7]/.test(src[i + 2] ?? '')) {
        throw fail(`error parsing regexp: invalid escape sequence: \`\\${n}\``);
      }
      if ((n === 'p' || n === 'P') && src[i + 2] !== '{') {
        out += `\\${n}{${src[i + 2]}}`;
        i += 2;
        continue;
      }
      if (/[A-Za-z0-9]/.test(n)) {
        out += `\\${n}`;
        i++;
        continue;
      }
      // Go allows escaping any punctuation; the u flag only allows a few, so use a hex escape.
      out += hex(n);
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const end = src.indexOf(':]', i + 2);
        if (end > 0) {
          let name = src.slice(i + 2, end);
          const negate = name.startsWith('^');
          if (negate) name = name.slice(1);
          const cls = POSIX_CLASSES[name];
          if (!cls) throw fail(`error parsing regexp: invalid character class range: \`[:${name}:]\``);
          if (negate) throw fail('error parsing regexp: negated POSIX classes are not supported');
          out += cls;
          i = end + 1;
          continue;
        }
      }
      if (c === '[') {
        out += '\\[';
        continue;
      }
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') out += src[++i];
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    // Lookarounds are Perl syntax RE2 refuses; JS would run them, so a pattern that Benthos
    // rejects must not quietly match here.
    const perl = /^\(\?(?:=|!|<=|<!)/.exec(src.slice(i, i + 4));
    if (perl) throw fail(`error parsing regexp: invalid or unsupported Perl syntax: \`${perl[0]}\``);
    if (c === '{') {
      const repeat = /^\{(\d+)(?:,(\d*))?\}/.exec(src.slice(i));
      if (repeat && (Number(repeat[1]) > 1000 || Number(repeat[2] || 0) > 1000)) {
        throw fail(`error parsing regexp: invalid repeat count: \`${repeat[0]}\``);
      }
    }
    if (c === '(' && src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += c;
  }
  return { source: out, flags };
}

export interface GoRegexp {
  re: RegExp;
  /** Capture group names by index (index 0 is the whole match); '' for unnamed groups. */
  names: string[];
}

const cache = new Map<string, GoRegexp>();

export function compileGo(pattern: string): GoRegexp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { source, flags } = translate(pattern);
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}g`);
  } catch (e) {
    throw fail(`error parsing regexp: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  const groupCount = new RegExp(`${source}|`, flags).exec('')!.length - 1;
  const names = new Array<string>(groupCount + 1).fill('');
  // Named groups appear in the pattern in index order; find each name's position.
  let idx = 0;
  const opens = /\\.|\[(?:\\.|[^\]])*\]|\((?!\?)|\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g;
  for (let m = opens.exec(source); m; m = opens.exec(source)) {
    if (m[0] === '(' || m[1] !== undefined) {
      idx++;
      if (m[1] !== undefined) names[idx] = m[1];
    }
  }
  const compiled = { re, names };
  if (cache.size > 500) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/** All non-overlapping matches, skipping empty matches that abut the previous one (as Go does). */
export function findAll(g: GoRegexp, s: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  const re = g.re;
  re.lastIndex = 0;
  let prevEnd = -1;
  while (re.lastIndex <= s.length) {
    const m = re.exec(s);
    if (!m) break;
    const end = m.index + m[0].length;
    if (m[0].length === 0) {
      // Step past the empty match by one code point.
      const cp = s.codePointAt(m.index);
      re.lastIndex = m.index + (cp !== undefined && cp > 0xffff ? 2 : 1);
      if (m.index === prevEnd) continue;
    }
    out.push(m);
    prevEnd = end;
  }
  return out;
}

/** Go's Regexp.Expand template: $1, ${1}, $name, ${name}, $$. */
export function expandTemplate(template: string, m: RegExpExecArray, names: string[]): string {
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
      if (close < 0 || !/^[A-Za-z0-9_]+$/.test(name)) {
        out += c;
        continue;
      }
      end = close;
    } else {
      const mm = /^[A-Za-z0-9_]+/.exec(template.slice(i + 1));
      if (!mm) {
        out += c;
        continue;
      }
      name = mm[0];
      end = i + name.length;
    }
    i = end;
    if (/^\d+$/.test(name)) {
      const n = Number(name);
      if (n < m.length) out += m[n] ?? '';
    } else {
      const idx = names.indexOf(name);
      if (idx > 0) out += m[idx] ?? '';
    }
  }
  return out;
}
