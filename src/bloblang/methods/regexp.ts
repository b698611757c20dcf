// Regular expression methods: RE2 syntax and Go's semantics, matched in linear time by the
// shared engine in src/regexp. A literal pattern RE2 refuses is a parse error of the mapping.
import {
  compilePattern,
  expandTemplate,
  type Match,
  type Pattern,
  PatternSyntaxError,
  patternProblem,
} from '../../regexp/index.js';
import type { Args, Value } from '../library.js';
import { setKey, stringToBytes, type ValueObject } from '../value.js';
import { argString, fail, method, p, targetString } from './support.js';

function patternArg(args: Args): Pattern {
  try {
    return compilePattern(argString(args, 0));
  } catch (err) {
    throw err instanceof PatternSyntaxError ? fail(err.message) : err;
  }
}

/** Checks a constant pattern argument when the mapping is compiled. */
function checkPatternArg(args: Args): void {
  if (typeof args[0] !== 'string') return;
  const problem = patternProblem(args[0]);
  if (problem !== undefined) throw fail(problem);
}

const checked = { checkArgs: checkPatternArg };

function groupsObject(g: Pattern, m: Match): ValueObject {
  const o: ValueObject = {};
  for (let i = 0; i < m.groups.length; i++)
    setKey(o, i === 0 ? '0' : g.names[i] || String(i), m.groups[i] ?? '');
  return o;
}

method('re_match', [p.str('pattern')], (t, a) => patternArg(a).test(targetString(t)), checked);

method(
  're_find_all',
  [p.str('pattern')],
  (t, a) => {
    const s = targetString(t);
    return patternArg(a)
      .spans(s)
      .map(([start, end]) => s.slice(start, end));
  },
  checked,
);

method(
  're_find_all_submatch',
  [p.str('pattern')],
  (t, a) =>
    patternArg(a)
      .findAll(targetString(t))
      .map((m) => m.groups.map((s) => s ?? '')),
  checked,
);

method(
  're_find_object',
  [p.str('pattern')],
  (t, a) => {
    const g = patternArg(a);
    const m = g.find(targetString(t));
    return m ? groupsObject(g, m) : {};
  },
  checked,
);

method(
  're_find_all_object',
  [p.str('pattern')],
  (t, a) => {
    const g = patternArg(a);
    return g.findAll(targetString(t)).map((m) => groupsObject(g, m));
  },
  checked,
);

/** Replaces every match with the expanded template; bytes targets give bytes. */
function replaceAll(t: Value, g: Pattern, template: string): Value {
  const s = targetString(t);
  let out = '';
  let last = 0;
  for (const m of g.findAll(s)) {
    out += s.slice(last, m.start) + expandTemplate(template, m, g.names);
    last = m.end;
  }
  out += s.slice(last);
  return t instanceof Uint8Array ? stringToBytes(out) : out;
}

for (const name of ['re_replace', 're_replace_all']) {
  method(
    name,
    [p.str('pattern'), p.str('value')],
    (t, a) => replaceAll(t, patternArg(a), argString(a, 1)),
    checked,
  );
}
