/** `@handle` mentions in a post body, distinct, in order of appearance. */
export function mentionedHandles(text: string): string[] {
  const handles = new Set<string>();
  for (const match of text.matchAll(/(?:^|[^A-Za-z0-9_@-])@([A-Za-z0-9_-]{1,255})/g)) handles.add(match[1]!);
  return [...handles].slice(0, 50);
}

/** The language a post is written in, judged from its script (translations are offered from it). */
export function detectLanguage(text: string): string {
  if (/[\p{Script=Hangul}]/u.test(text)) return 'ko';
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja';
  if (/[\p{Script=Han}]/u.test(text)) return 'zh-CN';
  if (/[\p{Script=Thai}]/u.test(text)) return 'th';
  return 'en';
}
