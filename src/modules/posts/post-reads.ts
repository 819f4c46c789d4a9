import type { ReadSql, ReadText } from '../../db/dialects/read-sql.js';

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
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/**
 * The columns, on each engine, for posts `p` each wanted in a language (`language`: null, none). Images, cards and
 * translations are looked up only for posts whose row says they may have one (`image_count`, `has_og`, kept by
 * every write, and a language other than the post's own): on a page of random posts most have none, and a
 * subquery under CASE is not run at all where a left join would still probe (on PostgreSQL a page of 50 posts'
 * items took less time than with the joins; on SQLite the gain was within noise; bench/results/performance-history.md).
 */
function columns(sql: ReadSql, language: string, withDetail: boolean): string {
  return `p.id, p.author_type, p.author_user_id, p.content, p.language, p.reposted_post_id, p.like_count, p.comment_count,
  p.posted_at, p.updated_at, p.image_count, p.has_og,
  u.handle AS user_handle, u.name AS user_name, u.image_url AS user_image_url, u.certificated AS user_certificated,
  c.handle AS company_handle, c.name AS company_name, c.logo_url AS company_logo_url, c.certificated AS company_certificated,
  CASE WHEN p.language <> ${language} THEN (SELECT t.content FROM post_translations t WHERE t.post_id = p.id AND t.language = ${language}) END AS translation,
  CASE WHEN p.has_og <> 0 THEN (SELECT ${sql.jsonArray('o.link', 'o.title', 'o.source', 'o.image', 'o.description')} FROM post_og_cards o WHERE o.post_id = p.id) END AS og,
  CASE WHEN p.image_count > 0 THEN (SELECT ${sql.jsonAgg(sql.jsonArray('i.id', 'i.media_key', 'i.width', 'i.height'), 'i.position')}
    FROM post_images i WHERE i.post_id = p.id) END AS images${
      withDetail
        ? `,
  (SELECT ${sql.jsonAgg(sql.jsonArray('m.mention_type', 'm.handle', 'm.name'), 'm.position')} FROM post_mentions m WHERE m.post_id = p.id) AS mentions,
  EXISTS (SELECT 1 FROM posts s WHERE s.id = p.reposted_post_id) AS source_exists`
        : ''
    }`;
}

const AUTHORS = `LEFT JOIN users u ON u.id = p.author_user_id
LEFT JOIN companies c ON c.id = p.author_company_id`;

/**
 * The posts of ids, each in a language (any order; the caller puts them in the page's): on SQLite the ids of one
 * language, on PostgreSQL pairs of ids and languages (prepared-reads.ts, ByLanguageRead).
 */
export const POST_ITEMS: ReadText = (sql) => {
  const w = sql.wanted('posts', 'p');
  return `${w.with}SELECT ${columns(sql, w.language, false)}, ${w.language} AS wanted_language FROM ${w.from} ${AUTHORS}${w.where}`;
};

/** The posts of ids as details, and the posts they repost (one level) in the same language, in one statement. */
export const POST_DETAILS: ReadText = (sql) => {
  const w = sql.wantedAndLinked('posts', 'p', 'reposted_post_id');
  return `${w.with}SELECT ${columns(sql, w.language, true)}, ${w.language} AS wanted_language FROM ${w.from} ${AUTHORS}${w.where}`;
};
