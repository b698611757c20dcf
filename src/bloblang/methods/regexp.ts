// Regular expression methods (Go RE2 syntax, translated and cached in regexp_go.ts).
import type { Value } from '../library.js';
import { setKey, stringToBytes, type ValueObject } from '../value.js';
import { compileGo, expandTemplate, findAll, type GoRegexp } from './regexp_go.js';
import { argString, method, p, targetString } from './support.js';

function groupsObject(g: GoRegexp, m: RegExpExecArray): ValueObject {
  const o: ValueObject = {};
  for (let i = 0; i < m.length; i++) setKey(o, i === 0 ? '0' : g.names[i] || String(i), m[i] ?? '');
  return o;
}

method('re_match', [p.str('pattern')], (t, a) => {
  const g = compileGo(argString(a, 0));
  g.re.lastIndex = 0;
  return g.re.test(targetString(t));
});

method('re_find_all', [p.str('pattern')], (t, a) => {
  const g = compileGo(argString(a, 0));
  return findAll(g, targetString(t)).map((m) => m[0]);
});

method('re_find_all_submatch', [p.str('pattern')], (t, a) => {
  const g = compileGo(argString(a, 0));
  return findAll(g, targetString(t)).map((m) => Array.from(m, (s) => s ?? ''));
});

method('re_find_object', [p.str('pattern')], (t, a) => {
  const g = compileGo(argString(a, 0));
  g.re.lastIndex = 0;
  const m = g.re.exec(targetString(t));
  return m ? groupsObject(g, m) : {};
});

method('re_find_all_object', [p.str('pattern')], (t, a) => {
  const g = compileGo(argString(a, 0));
  return findAll(g, targetString(t)).map((m) => groupsObject(g, m));
});

/** Replaces every match with the expanded template; bytes targets give bytes. */
function replaceAll(t: Value, pattern: string, template: string): Value {
  const g = compileGo(pattern);
  const s = targetString(t);
  let out = '';
  let last = 0;
  for (const m of findAll(g, s)) {
    out += s.slice(last, m.index) + expandTemplate(template, m, g.names);
    last = m.index + m[0].length;
  }
  out += s.slice(last);
  return t instanceof Uint8Array ? stringToBytes(out) : out;
}

for (const name of ['re_replace', 're_replace_all']) {
  method(name, [p.str('pattern'), p.str('value')], (t, a) => replaceAll(t, argString(a, 0), argString(a, 1)));
}
