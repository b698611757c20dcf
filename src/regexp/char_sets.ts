// Sets of code points as sorted, non-overlapping [from, to] ranges: enough to tell whether two
// single-character atoms of a pattern (a literal, `.`, `\d`, a class) can match the same character.

export type CharSet = readonly (readonly [number, number])[];

const MAX = 0x10ffff;

export function normalise(ranges: (readonly [number, number])[]): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

export function complement(set: CharSet): CharSet {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of set) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

export function disjoint(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i][1] < b[j][0]) i++;
    else if (b[j][1] < a[i][0]) j++;
    else return false;
  }
  return true;
}

const cp = (c: string) => c.codePointAt(0)!;

/** Go's Perl classes (ASCII only, as in RE2). */
export const DIGIT: CharSet = [[cp('0'), cp('9')]];
export const WORD: CharSet = normalise([
  [cp('0'), cp('9')],
  [cp('A'), cp('Z')],
  [cp('_'), cp('_')],
  [cp('a'), cp('z')],
]);
export const SPACE: CharSet = normalise([
  [9, 10],
  [12, 13],
  [32, 32],
]);
export const ANY: CharSet = [[0, MAX]];
export const ANY_BUT_NEWLINE: CharSet = complement([[10, 10]]);
