// HTML entity decoding for `unescape_html`: numeric references and the commonly used named
// entities (Go's html.UnescapeString knows the full HTML5 table; the rare ones are left as-is).

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  iexcl: '¡',
  cent: '¢',
  pound: '£',
  curren: '¤',
  yen: '¥',
  brvbar: '¦',
  sect: '§',
  uml: '¨',
  copy: '©',
  ordf: 'ª',
  laquo: '«',
  not: '¬',
  shy: '\u00ad',
  reg: '®',
  macr: '¯',
  deg: '°',
  plusmn: '±',
  sup2: '²',
  sup3: '³',
  acute: '´',
  micro: 'µ',
  para: '¶',
  middot: '·',
  cedil: '¸',
  sup1: '¹',
  ordm: 'º',
  raquo: '»',
  frac14: '¼',
  frac12: '½',
  frac34: '¾',
  iquest: '¿',
  times: '×',
  divide: '÷',
  szlig: 'ß',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  ldquo: '“',
  rdquo: '”',
  bdquo: '„',
  dagger: '†',
  Dagger: '‡',
  bull: '•',
  permil: '‰',
  prime: '′',
  Prime: '″',
  lsaquo: '‹',
  rsaquo: '›',
  euro: '€',
  trade: '™',
  larr: '←',
  uarr: '↑',
  rarr: '→',
  darr: '↓',
  harr: '↔',
  ensp: '\u2002',
  emsp: '\u2003',
  thinsp: '\u2009',
  zwnj: '\u200c',
  zwj: '\u200d',
  lrm: '\u200e',
  rlm: '\u200f',
  infin: '∞',
  ne: '≠',
  le: '≤',
  ge: '≥',
  minus: '−',
  asymp: '≈',
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  pi: 'π',
  sigma: 'σ',
  omega: 'ω',
  Alpha: 'Α',
  Beta: 'Β',
  Gamma: 'Γ',
  Delta: 'Δ',
  Pi: 'Π',
  Sigma: 'Σ',
  Omega: 'Ω',
};

// Latin-1 letters with diacritics: &Aacute; &eacute; &ntilde; ...
const ACCENTED: Array<[string, string, string]> = [
  ['A', 'grave', 'ÀàÈèÌìÒòÙù'],
  ['A', 'acute', 'ÁáÉéÍíÓóÚúÝý'],
  ['A', 'circ', 'ÂâÊêÎîÔôÛû'],
  ['A', 'tilde', 'ÃãÑñÕõ'],
  ['A', 'uml', 'ÄäËëÏïÖöÜüÿ'],
];
for (const [, suffix, chars] of ACCENTED) {
  for (const ch of chars) {
    const base = ch.normalize('NFD')[0];
    NAMED[`${base}${suffix}`] = ch;
  }
}
Object.assign(NAMED, {
  Aring: 'Å',
  aring: 'å',
  AElig: 'Æ',
  aelig: 'æ',
  Ccedil: 'Ç',
  ccedil: 'ç',
  ETH: 'Ð',
  eth: 'ð',
  Oslash: 'Ø',
  oslash: 'ø',
  THORN: 'Þ',
  thorn: 'þ',
  yuml: 'ÿ',
  OElig: 'Œ',
  oelig: 'œ',
  Scaron: 'Š',
  scaron: 'š',
  Yuml: 'Ÿ',
});

/** Windows-1252 replacements HTML5 applies to numeric references in 0x80-0x9F. */
const C1: Record<number, number> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
};

const ENTITY = /&(#[xX][0-9a-fA-F]+;?|#[0-9]+;?|[A-Za-z][A-Za-z0-9]*;?)/g;

export function unescapeHtml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(ENTITY, (whole, body: string) => {
    if (body[0] === '#') {
      const hex = body[1] === 'x' || body[1] === 'X';
      const digits = body.slice(hex ? 2 : 1).replace(/;$/, '');
      let code = Number.parseInt(digits, hex ? 16 : 10);
      if (C1[code]) code = C1[code];
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code < 0xe000)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    const name = body.replace(/;$/, '');
    const hit = NAMED[name];
    return hit === undefined ? whole : hit;
  });
}
