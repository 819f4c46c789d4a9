/** What the post index (post-index.ts) holds for each post: the tokens of its texts, and a facet token per filter. */
import { FACETS } from '../../search/fields.js';
import { textTokens } from '../../search/search-text.js';

export interface PostFacts { content: string | null; image_count: number; has_og: number; author_company_id: number | null }

/** The tokens of a post: its texts' (search-text.ts), then a facet token for each property a search filters on. */
export function postTokens(post: PostFacts, translations: Array<string | null>): string[] {
  const tokens = textTokens(post.content, ...translations);
  if (post.image_count > 0) tokens.push(FACETS.postImages);
  if (post.has_og) tokens.push(FACETS.postOg);
  if (post.author_company_id !== null) tokens.push(FACETS.company(post.author_company_id));
  return tokens;
}
