/**
 * The fields a search document carries besides its text (search-text.ts): one facet kind each, a letter that starts
 * every token of that facet, so that a filtered search is answered from the index alone, without reading a row per
 * match. What a resource puts into them lives with it (post-document.ts, job-document.ts, event-index.ts).
 */
import { facet } from './search-text.js';

/** The facet kinds (search-text.ts `facet`): one letter each, the start of every token of that facet. */
export const FACET_KIND = {
  postImages: 'i',
  postOg: 'o',
  company: 'c',
  jobCategory: 'k',
  seniority: 's',
  employmentType: 'e',
  companySize: 'z',
  workType: 'w',
  country: 'n',
  region: 'r',
  cell: 'g',
  payCurrency: 'y',
  payUnstated: 'u',
  payLow: 'l',
  payHigh: 'h',
  payRange: 'p',
  title: 't',
  companyName: 'm',
  titleWord: 'q',
  eventCategory: 'a',
  eventSubject: 'b',
  openType: 'v',
  industry: 'd',
  fundingStage: 'f',
  foundedYear: 'j',
  skill: 'x',
  openToWork: 'O',
  point: 'P',
} as const;

/**
 * The facet kinds whose values have no end (a company per post or job, among as many companies as the network
 * has) and of which a document holds one value: each document's value is also kept in a column, so that the
 * values of a few matches are counted by reading the matches (facet-counts.ts) rather than by intersecting
 * them with the posting of every value there is.
 */
export const COLUMN_KINDS: readonly string[] = [FACET_KIND.company];

export const FACETS = {
  postImages: facet(FACET_KIND.postImages),
  postOg: facet(FACET_KIND.postOg),
  company: (id: number) => facet(FACET_KIND.company, String(id)),
  jobCategory: (code: string) => facet(FACET_KIND.jobCategory, code),
  seniority: (code: string) => facet(FACET_KIND.seniority, code),
  employmentType: (code: string) => facet(FACET_KIND.employmentType, code),
  companySize: (code: string) => facet(FACET_KIND.companySize, code),
  workType: (code: string) => facet(FACET_KIND.workType, code),
  /** A job's country (ISO 3166-1 alpha-2), and its region as written. */
  country: (code: string) => facet(FACET_KIND.country, code),
  region: (name: string) => facet(FACET_KIND.region, name),
  /** A grid cell its coordinates are in (geo-cells.ts), one per cell size. */
  cell: (name: string) => facet(FACET_KIND.cell, name),
  /** The currency its pay is stated in, or that it states none. */
  payCurrency: (code: string) => facet(FACET_KIND.payCurrency, code),
  payUnstated: facet(FACET_KIND.payUnstated),
  /** The buckets (number-buckets.ts) of its yearly pay's least and most, in its currency. */
  payLow: (currency: string, bucket: number) => facet(FACET_KIND.payLow, `${currency}:${bucket}`),
  payHigh: (currency: string, bucket: number) => facet(FACET_KIND.payHigh, `${currency}:${bucket}`),
  /** The 1-2-5 range its yearly most falls in, for the salary facet: `KRW:50000000-100000000`. */
  payRange: (currency: string, [low, high]: [number, number]) =>
    facet(FACET_KIND.payRange, `${currency}:${low}-${high}`),
  /** What suggestions offer (suggestions.ts): a title as written, a company's name, a word of a title lower-cased. */
  title: (text: string) => facet(FACET_KIND.title, text),
  companyName: (name: string) => facet(FACET_KIND.companyName, name),
  titleWord: (word: string) => facet(FACET_KIND.titleWord, word),
  /** An event's category, subject and open type (OFFLINE, ONLINE, ON_OFFLINE, TBD). */
  eventCategory: (code: string) => facet(FACET_KIND.eventCategory, code),
  eventSubject: (code: string) => facet(FACET_KIND.eventSubject, code),
  openType: (code: string) => facet(FACET_KIND.openType, code),
  /** A company's industries (job-industries catalog codes), funding stage, and the year it was founded. */
  industry: (code: string) => facet(FACET_KIND.industry, code),
  fundingStage: (code: string) => facet(FACET_KIND.fundingStage, code),
  foundedYear: (year: number) => facet(FACET_KIND.foundedYear, String(year)),
  /** A member's skill, case folded (a profile's filter, facet and suggestion), and that they say they are open to work. */
  skill: (name: string) => facet(FACET_KIND.skill, foldedSkill(name)),
  openToWork: facet(FACET_KIND.openToWork),
  /** A document's point as `<latitude>,<longitude>`, for resources whose points are few and shared (near-filter.ts). */
  point: (value: string) => facet(FACET_KIND.point, value),
};

/** A skill as profiles are searched and counted by it: NFKC, lower case, inner spaces as one. */
export const foldedSkill = (name: string): string => name.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
