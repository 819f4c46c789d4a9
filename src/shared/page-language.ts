import type { FastifyRequest } from 'fastify';

/** The languages of the service's pages (the console, sign-in and consent, the landing page and the guides). */
export type PageLanguage = 'ko' | 'en';

/** The cookie the language switch sets: a choice made on one page holds on every page. */
export const LANGUAGE_COOKIE = 'svc_lang';

/** The language a visitor chose with the switch, if any. */
export function chosenLanguage(request: FastifyRequest): PageLanguage | null {
  const match = /(?:^|;\s*)svc_lang=(ko|en)(?:;|$)/.exec(request.headers.cookie ?? '');
  return match ? (match[1] as PageLanguage) : null;
}

/** A page's language: the visitor's choice, else Accept-Language when it names one of the two, else `fallback`. */
export function pageLanguage(request: FastifyRequest, fallback: PageLanguage): PageLanguage {
  const chosen = chosenLanguage(request);
  if (chosen) return chosen;
  if (request.locale === 'en' || request.locale === 'ko') return request.locale;
  return fallback;
}

/** The switch's two links for a page at `here` (its path and query), the current one marked. */
export function languageLinks(
  here: string,
  current: PageLanguage,
): { lang: PageLanguage; label: string; href: string; current: boolean }[] {
  return (
    [
      ['ko', '한국어'],
      ['en', 'English'],
    ] as const
  ).map(([lang, label]) => ({
    lang,
    label,
    href: `/language?to=${lang}&back=${encodeURIComponent(here)}`,
    current: lang === current,
  }));
}
