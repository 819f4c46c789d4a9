/**
 * The smoke test of `npm run bench:peers` (bench/peer-engines.ts, bench/lucene-peer.ts): on the demo's posts,
 * MiniSearch, Orama and (where Java 17 and Debian's liblucene8-java are installed) Lucene, given the project's tokens
 * and queries, agree with the service's own post index on every total and every RECENT page.
 * No timing is asserted: the figures are the benchmark's (docs/performance.md, "Peers").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LucenePeer, luceneClassPath } from '../bench/lucene-peer.js';
import {
  MiniSearchPeer,
  OramaPeer,
  peerQueryOf,
  readCorpus,
  writeCorpusFile,
  type PeerDocument,
  type PeerEngine,
} from '../bench/peer-engines.js';
import { PostIndex, type PostSearchFilter } from '../src/modules/posts/post-index.js';
import { FACETS } from '../src/search/fields.js';
import { facetParts } from '../src/search/search-text.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../src/shared/passwords.js';

describe('the peer engines of bench:peers', () => {
  let test: TestDatabase;
  let corpus: PeerDocument[];
  let ours: PostIndex;

  beforeAll(async () => {
    test = await createTestDatabase('sqlite');
    await generateDemoData(test.database, {
      now: Date.parse('2026-11-21T03:00:00Z'),
      passwordCost: MIN_PASSWORD_COST,
      posts: 400,
    });
    corpus = await readCorpus(test.database.db);
    ours = new PostIndex(test.database, { read: async () => 1 });
    await ours.ready();
  });
  afterAll(async () => {
    await ours?.close();
    await test?.database.close();
    await test?.drop();
  });

  /** Searches of every kind over the corpus's own vocabulary: common and rare words, pairs, facets, windows, pages. */
  function filters(): PostSearchFilter[] {
    const counts = new Map<string, number>();
    for (const document of corpus)
      for (const token of new Set(document.tokens))
        if (!facetParts(token)) counts.set(token, (counts.get(token) ?? 0) + 1);
    const words = [...counts].sort((a, b) => b[1] - a[1]).map(([word]) => word);
    const picks = [words[0]!, words[1]!, words[5]!, words[20]!, words[Math.floor(words.length / 2)]!, words.at(-1)!];
    const companies = [...new Set(corpus.flatMap((d) => d.tokens.filter((t) => facetParts(t)?.kind === 'c')))]
      .slice(0, 2)
      .map((t) => Number(facetParts(t)!.value));
    const times = corpus.map((d) => d.time).sort((a, b) => a - b);
    const middle = times[Math.floor(times.length / 2)]!;
    const out: PostSearchFilter[] = [];
    for (const order of ['recent', 'rank'] as const) {
      out.push({ terms: null, order, limit: 20, offset: 0 });
      for (const word of picks) {
        out.push({ terms: [word], order, limit: 20, offset: 0 });
        out.push({ terms: [word], order, limit: 10, offset: 10, hasImages: true });
        out.push({ terms: [word], order, limit: 50, offset: 0, hasOg: false, postedAfter: middle });
      }
      out.push({ terms: [picks[0]!, picks[1]!], order, limit: 20, offset: 0, postedBefore: middle });
      for (const company of companies)
        out.push({ terms: null, order, limit: 20, offset: 0, authorCompanyId: company, hasImages: false });
    }
    return out;
  }

  it.each([
    ['MiniSearch', () => new MiniSearchPeer()],
    ['Orama', () => new OramaPeer()],
  ] as Array<[string, () => PeerEngine]>)(
    '%s gives every total and RECENT page the post index gives',
    async (_name, make) => {
      const engine = make();
      await engine.build(corpus);
      const searches = filters();
      expect(searches.length).toBeGreaterThan(30);
      let nonEmpty = 0;
      for (const filter of searches) {
        const expected = await ours.search(filter);
        const answer = await engine.search(peerQueryOf(filter));
        expect(answer.total, JSON.stringify(filter)).toBe(expected.total);
        if (filter.order === 'recent' || !filter.terms)
          expect(answer.ids, JSON.stringify(filter)).toEqual(expected.ids);
        else expect(answer.ids.length).toBe(expected.ids.length);
        if (expected.total > 0) nonEmpty++;
      }
      // The searches found things: agreement on empty answers alone would prove little.
      expect(nonEmpty).toBeGreaterThan(searches.length / 2);
      expect(FACETS.postImages).toBeTruthy();
    },
  );

  const lucene = luceneClassPath();
  it.runIf('classPath' in lucene)(
    'Lucene 8 gives every total and RECENT page the post index gives, in its own JVM',
    async () => {
      const searches = filters();
      const engine = new LucenePeer('Lucene', 'sorted', (lucene as { classPath: string }).classPath);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'peers-test-')), 'corpus.tsv');
      expect(await writeCorpusFile(test.database.db, file)).toBe(corpus.length);
      await engine.start(file, searches.map(peerQueryOf));
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      try {
        for (const [i, filter] of searches.entries()) {
          const expected = await ours.search(filter);
          expect(engine.answers[i]!.total, JSON.stringify(filter)).toBe(expected.total);
          if (filter.order === 'recent' || !filter.terms)
            expect(engine.answers[i]!.ids, JSON.stringify(filter)).toEqual(expected.ids);
        }
        expect(await engine.round()).toHaveLength(searches.length);
        expect(await engine.repeat(1, 7)).toHaveLength(7);
        expect(engine.indexBytes).toBeGreaterThan(0);
      } finally {
        await engine.stop();
      }
    },
    60_000,
  );
});
