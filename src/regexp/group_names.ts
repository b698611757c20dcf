// Go's regexp accepts several groups with one name (`(?P<x>a)|(?P<x>b)`: SubexpNames lists the
// name twice); re2js and V8 refuse it. Such a pattern is compiled with the repeats renamed to
// names nobody wrote, and the written names are given back by index.

const GROUP_OPEN = /\(\?P?<([A-Za-z0-9_]+)>/y;

export interface RenamedGroups {
  /** The pattern with every repeated group name made unique. */
  readonly source: string;
  /** Unique name -> the name as written. */
  readonly written: ReadonlyMap<string, string>;
}

/** The pattern with repeated group names renamed, or undefined when no name repeats. */
export function renameRepeatedGroups(source: string): RenamedGroups | undefined {
  const all = [...source.matchAll(new RegExp(GROUP_OPEN.source, 'g'))].map((m) => m[1]!);
  if (new Set(all).size === all.length) return undefined; // the common case: nothing to scan
  const taken = new Set(all);
  const seen = new Set<string>();
  const written = new Map<string, string>();
  let out = '';
  let i = 0;
  let inClass = false;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      if (source[i + 1] === 'Q') {
        // \Q...\E is literal text, brackets and all.
        const end = source.indexOf('\\E', i + 2);
        const stop = end < 0 ? source.length : end + 2;
        out += source.slice(i, stop);
        i = stop;
      } else {
        out += source.slice(i, i + 2);
        i += 2;
      }
      continue;
    }
    if (inClass) {
      if (c === '[' && source[i + 1] === ':') {
        const end = source.indexOf(':]', i + 2);
        if (end >= 0) {
          out += source.slice(i, end + 2);
          i = end + 2;
          continue;
        }
      }
      if (c === ']') inClass = false;
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      // A `]` right after `[` or `[^` is a literal member, not the end of the class.
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      out += source.slice(i, j);
      i = j;
      inClass = true;
      continue;
    }
    GROUP_OPEN.lastIndex = i;
    const open = c === '(' ? GROUP_OPEN.exec(source) : null;
    if (open) {
      const name = open[1]!;
      let unique = name;
      if (seen.has(name)) {
        for (let n = 2; taken.has(unique); n++) unique = `${name}_${n}`;
        taken.add(unique);
        written.set(unique, name);
      }
      seen.add(name);
      out += open[0].replace(`<${name}>`, `<${unique}>`);
      i += open[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return written.size === 0 ? undefined : { source: out, written };
}
