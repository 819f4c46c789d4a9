import type { EngineSql } from '../../db/prepared-reads.js';

/**
 * A post as one statement returns it: its row, its author, its translation for the asked language, its card,
 * and its images as one JSON array of `[id, media_key, width, height]`, in order (null when it has none).
 */
export interface PostRow {
  id: number;
  author_type: string;
  author_user_id: number | null;
  content: string | null;
  language: string;
  reposted_post_id: number | null;
  like_count: number | null;
  comment_count: number | null;
  posted_at: number;
  updated_at: number;
  image_count: number;
  has_og: number;
  user_handle: string | null;
  user_name: string | null;
  user_image_url: string | null;
  user_certificated: number | null;
  company_handle: string | null;
  company_name: string | null;
  company_logo_url: string | null;
  company_certificated: number | null;
  translation: string | null;
  /** Its card as `[link, title, source, image, description]`, null when it has none. */
  og: JsonColumn<[string, string | null, string | null, string | null, string | null]>;
  images: JsonColumn<Array<[number, string, number | null, number | null]>>;
}

/** A post as a detail needs it: also its mentions (`[type, handle, name]`, in order) and whether its source exists. */
export interface PostDetailRow extends PostRow {
  mentions: JsonColumn<Array<[string, string, string]>>;
  source_exists: number | boolean;
}

/** A JSON value as the engine returns it: text from SQLite, parsed by pg on PostgreSQL, null for none. */
export type JsonColumn<T> = T | string | null;

export function jsonColumn<T>(value: JsonColumn<T[]>): T[] {
  return jsonValue(value) ?? [];
}

export function jsonValue<T>(value: JsonColumn<T>): T | null {
  return typeof value === 'string' ? JSON.parse(value) as T : value;
}

/**
 * The columns, on each engine, for posts `p` each wanted in a language (`language`: null, none). Images, cards and
 * translations are looked up only for posts whose row says they may have one (`image_count`, `has_og`, kept by
 * every write, and a language other than the post's own): on a page of random posts most have none, and a
 * subquery under CASE is not run at all where a left join would still probe (on PostgreSQL a page of 50 posts'
 * items took 10-35% less time than with the joins; on SQLite the gain was within noise; bench/results/performance-history.md).
 */
function columns(json: { agg: string; array: string }, language: string, withDetail: boolean): string {
  return `p.id, p.author_type, p.author_user_id, p.content, p.language, p.reposted_post_id, p.like_count, p.comment_count,
  p.posted_at, p.updated_at, p.image_count, p.has_og,
  u.handle AS user_handle, u.name AS user_name, u.image_url AS user_image_url, u.certificated AS user_certificated,
  c.handle AS company_handle, c.name AS company_name, c.logo_url AS company_logo_url, c.certificated AS company_certificated,
  CASE WHEN p.language <> ${language} THEN (SELECT t.content FROM post_translations t WHERE t.post_id = p.id AND t.language = ${language}) END AS translation,
  CASE WHEN p.has_og <> 0 THEN (SELECT ${json.array}(o.link, o.title, o.source, o.image, o.description) FROM post_og_cards o WHERE o.post_id = p.id) END AS og,
  CASE WHEN p.image_count > 0 THEN (SELECT ${json.agg}(${json.array}(i.id, i.media_key, i.width, i.height) ORDER BY i.position)
    FROM post_images i WHERE i.post_id = p.id) END AS images${withDetail ? `,
  (SELECT ${json.agg}(${json.array}(m.mention_type, m.handle, m.name) ORDER BY m.position) FROM post_mentions m WHERE m.post_id = p.id) AS mentions,
  EXISTS (SELECT 1 FROM posts s WHERE s.id = p.reposted_post_id) AS source_exists` : ''}`;
}

const AUTHORS = `LEFT JOIN users u ON u.id = p.author_user_id
LEFT JOIN companies c ON c.id = p.author_company_id`;

const SQLITE_JSON = { agg: 'json_group_array', array: 'json_array' };
const POSTGRES_JSON = { agg: 'json_agg', array: 'json_build_array' };

/**
 * The posts of ids, each in a language (any order; the caller puts them in the page's): on SQLite the ids of one
 * language (`?1`, `?2`), on PostgreSQL pairs of ids and languages (prepared-reads.ts, ByLanguageRead).
 */
export const POST_ITEMS: EngineSql = {
  sqlite: `SELECT ${columns(SQLITE_JSON, '?2', false)}, ?2 AS wanted_language FROM posts p ${AUTHORS} WHERE p.id IN (SELECT value FROM json_each(?1))`,
  postgres: `SELECT ${columns(POSTGRES_JSON, 'w.language', false)}, w.language AS wanted_language FROM unnest($1::int8[], $2::text[]) AS w(id, language) JOIN posts p ON p.id = w.id ${AUTHORS}`,
};

/** The posts of ids as details, and the posts they repost (one level) in the same language, in one statement. */
export const POST_DETAILS: EngineSql = {
  sqlite: `SELECT ${columns(SQLITE_JSON, '?2', true)}, ?2 AS wanted_language FROM posts p ${AUTHORS}
WHERE p.id IN (SELECT value FROM json_each(?1) UNION SELECT r.reposted_post_id FROM posts r WHERE r.id IN (SELECT value FROM json_each(?1)))`,
  // The pairs and their sources' as the rows to start from: with an OR of the two in WHERE, PostgreSQL reads every post.
  postgres: `WITH w AS (SELECT * FROM unnest($1::int8[], $2::text[]) AS w(id, language))
SELECT ${columns(POSTGRES_JSON, 'wanted.language', true)}, wanted.language AS wanted_language
FROM (SELECT id, language FROM w UNION SELECT r.reposted_post_id, w.language FROM w JOIN posts r ON r.id = w.id) wanted
JOIN posts p ON p.id = wanted.id ${AUTHORS}`,
};
