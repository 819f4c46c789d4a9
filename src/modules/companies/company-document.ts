/** What the company index (company-index.ts) holds for each company: its texts and a facet token per filter. */
import { FACETS } from '../../search/fields.js';
import { cellsOf } from '../../search/geo-cells.js';
import type { SearchDocument } from '../../search/posting-index.js';

export interface CompanyFacts {
  handle: string;
  name: string;
  description: string | null;
  size: string;
  /** Every industry code, the main one first. */
  industries: string[];
  funding_stage: string | null;
  founded_year: number | null;
  location_country: string | null;
  location_region: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
}

/** A company's coordinates; null when its place has none. */
export function companyPoint(
  company: Pick<CompanyFacts, 'location_latitude' | 'location_longitude'>,
): { latitude: number; longitude: number } | null {
  return company.location_latitude === null || company.location_longitude === null
    ? null
    : { latitude: Number(company.location_latitude), longitude: Number(company.location_longitude) };
}

/**
 * A company as the index takes it: its name, handle, description, the descriptions of its translations and the names of
 * its industries (in every language the catalog has) as text; its industries, size, funding stage, founding year,
 * country, region and grid cells as facets; its name for suggestions.
 */
export function companyDocument(
  company: CompanyFacts,
  translations: readonly string[],
  industryNames: readonly string[],
): SearchDocument {
  const facets = [FACETS.companySize(company.size), FACETS.companyName(company.name)];
  for (const code of company.industries) facets.push(FACETS.industry(code));
  if (company.funding_stage !== null) facets.push(FACETS.fundingStage(company.funding_stage));
  if (company.founded_year !== null) facets.push(FACETS.foundedYear(company.founded_year));
  if (company.location_country !== null) facets.push(FACETS.country(company.location_country));
  if (company.location_region !== null) facets.push(FACETS.region(company.location_region));
  const point = companyPoint(company);
  if (point) facets.push(...cellsOf(point).map(FACETS.cell));
  return {
    texts: [company.name, handleWords(company), company.description ?? '', ...translations, ...industryNames],
    facets,
  };
}

/**
 * The words of a company's handle that its name does not hold (`kakao-bank` of "Kakao Bank" adds none): a handle
 * mostly repeats the name, and a word twice in a document would cost an occurrence tier for nothing.
 */
function handleWords(company: Pick<CompanyFacts, 'name' | 'handle'>): string {
  const named = new Set(
    company.name
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u),
  );
  return company.handle
    .toLowerCase()
    .split(/[-_]+/)
    .filter((word) => !named.has(word))
    .join(' ');
}

/** A company's industries as its row keeps them: the JSON list, or its one `industry` (a row from before the list). */
export function industriesOf(row: { industry: string; industries: string | null }): string[] {
  if (row.industries === null) return [row.industry];
  const list = JSON.parse(row.industries) as string[];
  return list.length > 0 ? list : [row.industry];
}

/**
 * The keys NAME orders by: the name's first nine characters (case folded), three to a number, each number negated so
 * that "highest first" reads A to Z (가 to 힣 for Korean names); a name's tenth character on does not order.
 */
export function nameKeys(name: string): [number, number, number] {
  const folded = name.normalize('NFC').toLowerCase();
  const key = (from: number) => {
    let n = 0;
    for (let i = from; i < from + 3; i++) n = n * 65_536 + (folded.charCodeAt(i) || 0);
    return -n;
  };
  return [key(0), key(3), key(6)];
}
