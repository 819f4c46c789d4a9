import { LOCALES, type Locale } from './catalog-data.js';

export type { Locale };
export const DEFAULT_LOCALE: Locale = 'ko';

/** Languages that bodies of posts, jobs and events are translated into. */
export const TRANSLATED_LANGUAGES: ReadonlySet<string> = new Set(['en', 'ja', 'zh-CN', 'zh-TW']);

const ALIASES: Record<string, Locale> = {
  'zh-hant': 'zh-TW',
  'zh-tw': 'zh-TW',
  'zh-hk': 'zh-TW',
  'zh-mo': 'zh-TW',
  zh: 'zh-CN',
  'zh-hans': 'zh-CN',
  'zh-cn': 'zh-CN',
  'zh-sg': 'zh-CN',
};
const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/** The supported locale a language tag names (`en-US` → `en`, `zh-Hant` → `zh-TW`), or null. */
export function resolveTag(tag: string): Locale | null {
  const lower = tag.toLowerCase();
  const exact = BY_LOWER.get(lower) ?? ALIASES[lower];
  if (exact) return exact;
  const parts = lower.split('-');
  // zh-Hant-TW → zh-hant; en-US → en
  for (let n = parts.length - 1; n >= 1; n--) {
    const prefix = parts.slice(0, n).join('-');
    const match = BY_LOWER.get(prefix) ?? ALIASES[prefix];
    if (match) return match;
  }
  return null;
}

/** Picks the best supported locale for an Accept-Language header (q-values honoured); `ko` when none fits. */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranges = header.split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';');
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q' && value !== undefined) q = Number(value);
    }
    return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const range of ranges) {
    if (range.q <= 0 || range.tag === '' || range.tag === '*') continue;
    const locale = resolveTag(range.tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The language whose translations a read joins: one the service translates into, else none. */
export function translationLanguage(locale: Locale): string | null {
  return TRANSLATED_LANGUAGES.has(locale) ? locale : null;
}
