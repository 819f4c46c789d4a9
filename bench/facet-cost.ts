/**
 * What the company facet count costs as the number of companies grows, with no database and no HTTP:
 *   npm run bench:facet-cost -- [--docs 1000000] [--companies 12,1000,10000,100000] [--searches 200]
 *
 * The benchmark's data set has 12 companies (the demo's), where counting a company facet by intersecting the
 * matches with each company's posting is cheap; a network has thousands. This builds the search index's own
 * posting index in memory (search/posting-index.ts): `--docs` documents, each with a company (a few companies hold
 * most documents, as a network's large employers do) and one of 4,000 keyword tokens whose popularity falls as 1/k,
 * as the workload's keywords do. It then counts the company facet of `--searches` keyword searches of each match
 * size, three ways: intersecting with every company's posting, reading each match's company from the column, and
 * the service's choice between the two (facet-counts.ts countValues). CPU µs per count, median and mean.
 */
import { parseArgs } from 'node:util';
import { countByIntersecting, countByReading, countValues } from '../src/search/facet-counts.js';
import { PostingIndex } from '../src/search/posting-index.js';
import { FACET_KIND, FACETS } from '../src/search/fields.js';
import { SeededRandom } from '../src/demo/random.js';
import type { Bitmap } from '../src/search/bitmaps.js';

const { values } = parseArgs({
  options: {
    docs: { type: 'string', default: '1000000' },
    companies: { type: 'string', default: '12,1000,10000,100000' },
    searches: { type: 'string', default: '200' },
  },
});
const documents = Number(values.docs);
const searches = Number(values.searches);
const KEYWORDS = 4_000;

/** CPU µs of one call, median and mean over the matches. */
function timed(all: Bitmap[], count: (matches: Bitmap) => unknown): { median: number; mean: number } {
  const costs = all
    .map((matches) => {
      const before = process.cpuUsage();
      count(matches);
      const spent = process.cpuUsage(before);
      return spent.user + spent.system;
    })
    .sort((a, b) => a - b);
  return { median: costs[costs.length >> 1]!, mean: costs.reduce((a, b) => a + b, 0) / costs.length };
}

const show = ({ median, mean }: { median: number; mean: number }) => `${median.toFixed(0)} / ${mean.toFixed(0)}`;

console.log(
  `\n${documents.toLocaleString('en')} documents, ${searches} keyword searches per row; CPU µs per company facet count, median / mean\n`,
);
console.log(
  '| companies | matches per search (median) | intersecting every posting | reading the column | countValues (the service) |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const companies of values.companies!.split(',').map(Number)) {
  const random = new SeededRandom(companies);
  const index = new PostingIndex();
  for (let doc = 0; doc < documents; doc++) {
    const company = Math.floor(companies * random.next() ** 3);
    const keyword = Math.floor(KEYWORDS ** random.next()) - 1;
    index.add(doc, { texts: [`k${keyword}`], facets: [FACETS.company(company)] });
  }
  index.optimize();
  // Searches by rank of their keyword: the popular keywords match hundreds of thousands, the rare ones a few.
  for (const [from, to] of [
    [0, 3],
    [3, 40],
    [40, 400],
    [400, KEYWORDS],
  ] as const) {
    const all = Array.from({ length: searches }, () =>
      index.match({ all: [[`k${random.int(from, to - 1)}`]], none: [] }),
    );
    // Warm the three up on other matches first, so that the first timed calls do not pay for compiling them.
    for (const matches of all.slice(0, 20)) {
      countByIntersecting(matches, index.facetValues(FACET_KIND.company));
      countByReading(matches, index.facetColumn(FACET_KIND.company)!);
      countValues(index, matches, FACET_KIND.company, 20);
    }
    const sizes = all.map((m) => m.size).sort((a, b) => a - b);
    const intersecting = timed(all, (matches) => countByIntersecting(matches, index.facetValues(FACET_KIND.company)));
    const reading = timed(all, (matches) => countByReading(matches, index.facetColumn(FACET_KIND.company)!));
    const chosen = timed(all, (matches) => countValues(index, matches, FACET_KIND.company, 20));
    console.log(
      `| ${companies.toLocaleString('en')} | ${sizes[sizes.length >> 1]!.toLocaleString('en')} | ${show(intersecting)} | ${show(reading)} | ${show(chosen)} |`,
    );
    for (const matches of all) matches.dispose();
  }
}
