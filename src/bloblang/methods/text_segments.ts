// `slug` (gosimple/slug's MakeLang) and `unicode_segments` (UAX #29 graphemes, words and
// sentences, through Intl.Segmenter where the reference uses rivo/uniseg).
import { fail, method, p, targetString } from './support.js';

// ---------------------------------------------------------------------------
// slug

/** Dropped quotes and unified dashes, merged into every language. */
const DEFAULT_SUB: Record<string, string> = {
  '"': '',
  "'": '',
  '’': '',
  '‒': '-',
  '–': '-',
  '—': '-',
  '―': '-',
};

const LANG_SUB: Record<string, Record<string, string>> = {
  cs: { '&': 'a', '@': 'zavinac' },
  de: { '&': 'und', '@': 'an', ä: 'ae', Ä: 'Ae', ö: 'oe', Ö: 'Oe', ü: 'ue', Ü: 'Ue' },
  en: { '&': 'and', '@': 'at' },
  es: { '&': 'y', '@': 'en' },
  fi: { '&': 'ja', '@': 'at' },
  fr: { '&': 'et', '@': 'arobase' },
  id: { '&': 'dan' },
  it: { '&': 'e', '@': 'chiocciola' },
  nb: { '&': 'og', '@': 'at', æ: 'ae', ø: 'oe', å: 'aa', Æ: 'Ae', Ø: 'Oe', Å: 'Aa' },
  nl: { '&': 'en', '@': 'at' },
  pl: { '&': 'i', '@': 'na' },
  pt: { '&': 'e' },
  ro: { '&': 'si' },
  sl: { '&': 'in', Đ: 'DZ', đ: 'dz' },
  sv: { '&': 'och', '@': 'snabel a' },
  tr: { '&': 've', '@': 'et', ı: 'i', İ: 'I' },
};
LANG_SUB.nn = LANG_SUB.nb!;

/** Letters NFKD does not split into a base letter and marks (what unidecode spells out). */
const TRANSLITERATE: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
};

export function slugify(text: string, lang: string): string {
  // An unknown language falls back to English, as gosimple/slug does.
  const subs = { ...(LANG_SUB[lang] ?? LANG_SUB.en), ...DEFAULT_SUB };
  let s = '';
  for (const ch of text) s += subs[ch] ?? ch;
  s = [...s].map((ch) => TRANSLITERATE[ch] ?? ch).join('');
  s = s.normalize('NFKD').replace(/\p{M}/gu, '');
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

method('slug', [p.str('lang', { optional: true, default: 'en' })], (target, args) =>
  slugify(targetString(target), (args[0] as string | undefined) ?? 'en'),
);

// ---------------------------------------------------------------------------
// unicode_segments

const GRANULARITY: Record<string, 'grapheme' | 'word' | 'sentence'> = {
  grapheme: 'grapheme',
  word: 'word',
  sentence: 'sentence',
};

method('unicode_segments', [p.str('segmentation_type')], (target, args) => {
  const text = targetString(target);
  const type = args[0] as string;
  const granularity = GRANULARITY[type];
  if (!granularity) throw fail(`unknown segmentation type: ${type}`);
  const segmenter = new Intl.Segmenter('en', { granularity });
  return [...segmenter.segment(text)].map((s) => s.segment);
});
