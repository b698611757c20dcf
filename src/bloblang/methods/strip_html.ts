// `strip_html`: the text of an HTML string without its tags, as bluemonday's sanitiser with no
// allowed elements gives it (text re-escaped Go's way; script and style bodies dropped), or with
// the named elements kept, bare of their attributes.
import { unescapeHtml } from './html_entities.js';
import { fail, method, p, targetString } from './support.js';

/** Elements whose content bluemonday drops with them unless they are allowed. */
const SKIP_CONTENT = new Set([
  'script',
  'style',
  'frame',
  'frameset',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'nostyle',
  'object',
  'title',
]);

/** Elements written without a closing tag. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

/** Go's html.EscapeString. */
function escapeText(s: string): string {
  return s.replace(
    /[&'<>"]/g,
    (c) => ({ '&': '&amp;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '"': '&#34;' })[c]!,
  );
}

const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*>|<\?[^>]*>|<(\/?)([A-Za-z][A-Za-z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

export function stripHtml(html: string, keep: ReadonlySet<string>): string {
  let out = '';
  let skipping: string | null = null;
  let last = 0;
  const text = (s: string) => {
    if (skipping === null && s !== '') out += escapeText(unescapeHtml(s));
  };
  for (const m of html.matchAll(TOKEN)) {
    text(html.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (!name) continue; // comments, doctypes, processing instructions
    const closing = m[1] === '/';
    if (skipping !== null) {
      if (closing && name === skipping) skipping = null;
      continue;
    }
    if (keep.has(name)) {
      const selfClosing = /\/\s*$/.test(m[3] ?? '') || VOID.has(name);
      out += closing ? `</${name}>` : selfClosing ? `<${name}/>` : `<${name}>`;
    } else if (!closing && SKIP_CONTENT.has(name) && !/\/\s*$/.test(m[3] ?? '')) {
      skipping = name;
    }
  }
  text(html.slice(last));
  return out;
}

method('strip_html', [p.any('preserve', { optional: true })], (target, args) => {
  const keep = new Set<string>();
  const preserve = args[0];
  if (Array.isArray(preserve)) {
    preserve.forEach((e, i) => {
      if (typeof e !== 'string') throw fail(`invalid arg at index ${i}: expected string, got ${typeof e}`);
      keep.add(e.toLowerCase());
    });
  }
  return stripHtml(targetString(target), keep);
});
