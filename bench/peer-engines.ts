/**
 * The search engines `npm run bench:peers` compares with the service's own post index, given the same documents and
 * the same queries: every document as the tokens the project's tokenizer gives it (texts and translations, then
 * facet tokens: search/fields.ts), every query as the bitmap algebra the post index answers (post-index.ts
 * `postIndexQuery`: groups of tokens all required, tokens excluded) with its time window, order and page. Each
 * engine answers an exact total and the requested page; RECENT pages are newest first (time, then id), RELEVANCE
 * pages by each engine's own ranking, so only totals and RECENT pages are compared.
 */
import { create, insertMultiple, search as oramaSearch, type AnyOrama } from '@orama/orama';
import fs from 'node:fs';
import MiniSearch from 'minisearch';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/schema.js';
import { postTokens } from '../src/modules/posts/post-document.js';
import { editsFor } from '../src/search/typo-tolerance.js';
import { postIndexQuery, type PostSearchFilter } from '../src/modules/posts/post-index.js';
import { FACETS } from '../src/search/fields.js';
import { groupBy } from '../src/shared/group.js';

export interface PeerDocument {
  id: number;
  time: number;
  tokens: string[];
}

/** A query as every engine takes it. */
export interface PeerQuery {
  required: string[];
  /** Words matched within edits (typo tolerance, docs/search.md "Typos"): each word, and the edits it may differ by. */
  fuzzy: Array<[string, number]>;
  excluded: string[];
  from: number;
  to: number;
  recent: boolean;
  offset: number;
  limit: number;
}

export interface PeerAnswer {
  total: number;
  ids: number[];
}

export interface PeerEngine {
  readonly name: string;
  build(documents: PeerDocument[]): Promise<void>;
  search(query: PeerQuery): Promise<PeerAnswer> | PeerAnswer;
}

/** Every post of the tables as the post index reads it (post-index.ts's source), in posting order. */
export async function readCorpus(db: Kysely<DB>, limit = Number.MAX_SAFE_INTEGER): Promise<PeerDocument[]> {
  const documents: PeerDocument[] = [];
  for await (const batch of corpusBatches(db, limit)) documents.push(...batch);
  return documents;
}

/**
 * The corpus as lines of `id TAB time TAB tokens` in `file` (what Lucene reads), written a batch at a time, so that
 * the process that times the project's index never holds the whole corpus (at a million posts, gigabytes that its
 * collector would go on marking during the timed passes). Returns how many documents it wrote.
 */
export async function writeCorpusFile(db: Kysely<DB>, file: string): Promise<number> {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  try {
    for await (const batch of corpusBatches(db)) {
      fs.writeSync(fd, batch.map((d) => `${d.id}\t${d.time}\t${d.tokens.join(' ')}\n`).join(''));
      written += batch.length;
    }
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

/** The posts in batches of a few thousand, in posting order, as `readCorpus` gives them. */
async function* corpusBatches(db: Kysely<DB>, limit = Number.MAX_SAFE_INTEGER): AsyncGenerator<PeerDocument[]> {
  let read = 0;
  let after: [number, number] | null = null;
  for (;;) {
    const rows: Array<{
      id: number;
      content: string | null;
      image_count: number;
      has_og: number;
      author_company_id: number | null;
      posted_at: number;
    }> = await db
      .selectFrom('posts')
      .select(['id', 'content', 'image_count', 'has_og', 'author_company_id', 'posted_at'])
      .$if(after !== null, (q) =>
        q.where((eb) => eb(eb.refTuple('posted_at', 'id'), '>', eb.tuple(after![0], after![1]))),
      )
      .orderBy('posted_at')
      .orderBy('id')
      .limit(Math.min(5_000, limit - read))
      .execute();
    if (rows.length === 0) break;
    const translations = groupBy(
      await db
        .selectFrom('post_translations')
        .select(['post_id', 'content'])
        .where(
          'post_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute(),
      (t) => t.post_id,
    );
    const batch: PeerDocument[] = [];
    for (const row of rows) {
      batch.push({
        id: row.id,
        time: Number(row.posted_at),
        tokens: postTokens(
          row,
          (translations.get(row.id) ?? []).map((t) => t.content),
        ),
      });
    }
    yield batch;
    read += batch.length;
    const last = rows.at(-1)!;
    after = [Number(last.posted_at), last.id];
    if (read >= limit) break;
  }
}

/** A post search as the peers take it. Only the index's single-token groups occur for posts. */
export function peerQueryOf(filter: PostSearchFilter): PeerQuery {
  const { all, none } = postIndexQuery(filter);
  if (all.some((group) => group.length !== 1)) throw new Error('A post search groups one token at a time');
  // A typo-tolerant word of a spaced script is a fuzzy word; Korean corrections (bigrams) have no peer here.
  const fuzzy: Array<[string, number]> = (filter.typoWords ?? []).flatMap((word) => {
    if (word.cjk) throw new Error('The peers take typo-tolerant words of spaced scripts only');
    const edits = editsFor([...word.text].length);
    return edits === 0 ? [] : [[word.text, edits] as [string, number]];
  });
  const fuzzyWords = new Set(fuzzy.map(([word]) => word));
  return {
    required: all.map((group) => group[0]!).filter((token) => !fuzzyWords.has(token)),
    fuzzy,
    excluded: none,
    from: filter.postedAfter ?? -Infinity,
    to: filter.postedBefore ?? Infinity,
    recent: filter.order === 'recent' || !filter.terms,
    offset: filter.offset,
    limit: filter.limit,
  };
}

const newestFirst = (a: { time: number; id: number }, b: { time: number; id: number }) =>
  b.time - a.time || b.id - a.id;

/** MiniSearch 7: one field of the tokens, split on spaces and taken as they are; AND of the required tokens. */
export class MiniSearchPeer implements PeerEngine {
  readonly name = 'MiniSearch';
  private index!: MiniSearch<{ id: number; time: number; text: string }>;
  private readonly byId = new Map<number, PeerDocument>();

  async build(documents: PeerDocument[]): Promise<void> {
    this.index = new MiniSearch({
      fields: ['text'],
      storeFields: [],
      idField: 'id',
      tokenize: (text) => text.split(' '),
      processTerm: (term) => term,
      searchOptions: { tokenize: (text) => text.split(' '), processTerm: (term) => term },
    });
    for (const document of documents) this.byId.set(document.id, document);
    await this.index.addAllAsync(
      documents.map((d) => ({ id: d.id, time: d.time, text: d.tokens.join(' ') })),
      { chunkSize: 5_000 },
    );
  }

  search(query: PeerQuery): PeerAnswer {
    const keep = (id: number) => {
      const document = this.byId.get(id)!;
      return (
        document.time >= query.from &&
        document.time <= query.to &&
        !query.excluded.some((token) => document.tokens.includes(token))
      );
    };
    const results =
      query.required.length === 0
        ? this.index.search(MiniSearch.wildcard, { filter: (result) => keep(result.id as number) })
        : this.index.search(
            { queries: query.required, combineWith: 'AND' },
            { prefix: false, fuzzy: false, filter: (result) => keep(result.id as number) },
          );
    const ordered = query.recent
      ? results
          .map((r) => this.byId.get(r.id as number)!)
          .sort(newestFirst)
          .map((d) => d.id)
      : results.map((r) => r.id as number);
    return { total: results.length, ids: ordered.slice(query.offset, query.offset + query.limit) };
  }
}

/**
 * Orama 3: the tokens as one string property split on spaces; every required token must match (threshold 0). Orama
 * matches a term as a prefix of the indexed ones (its `exact` option looks for Latin words in the raw text), so each
 * token is stored and asked for with an end mark: `니|` does not prefix `니다|`.
 */
const ended = (token: string) => `${token}|`;

export class OramaPeer implements PeerEngine {
  readonly name = 'Orama';
  private db!: AnyOrama;

  async build(documents: PeerDocument[]): Promise<void> {
    this.db = create({
      schema: { text: 'string', time: 'number', images: 'boolean', og: 'boolean' } as const,
      components: {
        tokenizer: {
          language: 'english',
          normalizationCache: new Map(),
          tokenize: (raw: string) => raw.split(' ').filter(Boolean),
        },
      },
    });
    const rows = documents.map((d) => ({
      id: String(d.id),
      text: d.tokens.map(ended).join(' '),
      time: d.time,
      images: d.tokens.includes(FACETS.postImages),
      og: d.tokens.includes(FACETS.postOg),
    }));
    for (let i = 0; i < rows.length; i += 5_000) await insertMultiple(this.db, rows.slice(i, i + 5_000));
  }

  async search(query: PeerQuery): Promise<PeerAnswer> {
    const where: Record<string, unknown> = {};
    if (query.from !== -Infinity || query.to !== Infinity)
      where.time = { between: [Math.max(query.from, 0), Math.min(query.to, Number.MAX_SAFE_INTEGER)] };
    if (query.excluded.includes(FACETS.postImages)) where.images = false;
    if (query.excluded.includes(FACETS.postOg)) where.og = false;
    const result = await oramaSearch(this.db, {
      ...(query.required.length > 0
        ? { term: query.required.map(ended).join(' '), properties: ['text'], threshold: 0, tolerance: 0 }
        : {}),
      where,
      limit: query.limit,
      offset: query.offset,
      ...(query.recent
        ? {
            sortBy: (a: [string, number, { time: number }], b: [string, number, { time: number }]) =>
              b[2].time - a[2].time || Number(b[0]) - Number(a[0]),
          }
        : {}),
    } as never);
    return { total: result.count, ids: result.hits.map((hit) => Number(hit.id)) };
  }
}
