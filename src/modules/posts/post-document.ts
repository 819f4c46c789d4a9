/** What the post index (post-index.ts) holds for each post: its texts, and a facet token per filter. */
import { FACETS } from '../../search/fields.js';
import type { SearchDocument } from '../../search/posting-index.js';
import { textTokens } from '../../search/search-text.js';

export interface PostFacts {
  content: string | null;
  image_count: number;
  has_og: number;
  author_company_id: number | null;
}

/** A post as the index takes it: its text and translations, and a facet token for each property a search filters on. */
export function postDocument(post: PostFacts, translations: Array<string | null>): SearchDocument {
  const facets: string[] = [];
  if (post.image_count > 0) facets.push(FACETS.postImages);
  if (post.has_og) facets.push(FACETS.postOg);
  if (post.author_company_id !== null) facets.push(FACETS.company(post.author_company_id));
  return { texts: [post.content, ...translations], facets };
}

/** The tokens the index holds for a post (its texts' tokens, then its facets), as strings. */
export function postTokens(post: PostFacts, translations: Array<string | null>): string[] {
  const { texts, facets } = postDocument(post, translations);
  return [...textTokens(...texts), ...facets];
}
