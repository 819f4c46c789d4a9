/**
 * Realistic traffic for the benchmark: every request drawn from thousands of distinct ones, the way a
 * population of builders' apps would send them, so that no response cache can answer the run.
 *
 * Keywords come from the words the generated data is made of (Korean, English, Japanese, Chinese, single
 * syllables included), ranked at random and drawn with Zipf-like popularity (the k-th keyword about 1/k as
 * often as the first). Filters, sorts, pages (1-50), page sizes, languages and app keys are drawn for each
 * request independently.
 */
import { catalogCodes } from '../src/shared/catalog-data.js';
import { FUNDING, NAME_ENDS, NAME_STARTS, SKILLS } from './generate-data.js';
import { SeededRandom } from '../src/demo/random.js';
import { PLACES_OF_CITY } from '../src/demo/places.js';
import {
  CITIES,
  COMPANIES,
  EVENT_TEXTS,
  fill,
  JOB_TEXTS,
  POST_TEMPLATES,
  ROLES,
  TECHS,
  TEXT_LANGUAGES,
} from '../src/demo/vocabulary.js';

const LANGUAGES = ['ko', 'ko', 'ko', 'en', 'en-US,en;q=0.9', 'ja', 'zh-CN', 'zh-TW', 'ko-KR,ko;q=0.9,en;q=0.5', 'de'];

/** Every searchable word of the generated texts: words of spaced scripts, 1-3 character pieces of CJK runs. */
export function keywordPool(): string[] {
  const words = new Set<string>();
  const texts: string[] = [];
  for (const language of TEXT_LANGUAGES) {
    for (const role of ROLES) {
      for (const tech of TECHS) {
        const slots = { company: COMPANIES[0].name, role: role.name[language], tech, city: CITIES[0]![language] };
        for (const template of POST_TEMPLATES) texts.push(fill(template[language], slots));
        texts.push(
          fill(JOB_TEXTS.description[language], slots),
          fill(JOB_TEXTS.subtitle[language], slots),
          fill(EVENT_TEXTS.name[language], slots),
        );
      }
    }
    for (const city of CITIES) texts.push(city[language]);
  }
  for (const company of COMPANIES) texts.push(company.name);
  for (const text of texts) {
    for (const word of text.match(
      /[^\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\s\p{P}\p{S}]{2,}/gu,
    ) ?? [])
      words.add(word.toLowerCase());
    for (const run of text.match(/[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu) ?? []) {
      const chars = Array.from(run);
      // Korean is spaced into words; Japanese and Chinese are not: take pieces of 1 to 3 characters.
      if (/\p{Script=Hangul}/u.test(run) && chars.length <= 6) words.add(run);
      for (let i = 0; i < chars.length; i++) {
        for (let n = 1; n <= 3 && i + n <= chars.length; n++) words.add(chars.slice(i, i + n).join(''));
      }
    }
  }
  return [...words];
}

/** Draws indexes 0..n-1 with probability proportional to 1/(k+1)^s. */
export class Zipf {
  private readonly cumulative: number[] = [];

  constructor(n: number, s = 1) {
    let sum = 0;
    for (let k = 0; k < n; k++) this.cumulative.push((sum += 1 / (k + 1) ** s));
  }

  draw(rnd: SeededRandom): number {
    const x = rnd.next() * this.cumulative[this.cumulative.length - 1]!;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export interface Workload {
  postSearch(): string;
  jobSearch(): string;
  postDetail(): string;
  jobDetail(): string;
  companySearch(): string;
  companyDetail(): string;
  profileSearch(): string;
  profileDetail(): string;
  /** Headers of one request: one of the app keys, one of the languages. */
  headers(): Record<string, string>;
  /** The broadest single-syllable keyword of the data (the slowest to search if counting meant reading every match). */
  broadest: string;
  /** How many distinct post and job search URLs the generators produced in a sample of 20,000 draws each. */
  distinct: { postSearches: number; jobSearches: number };
}

export interface WorkloadData {
  /** Every post id (posts are deleted for good, so the id range has gaps). */
  postIds: Int32Array;
  /** Ids of published and finished jobs (the ones a detail read finds). */
  jobIds: number[];
  apiKeys: string[];
  /** Handles of companies (a sample of the directory). */
  companyHandles: string[];
  /** Handles of members with a public profile (a sample); empty in data sets without profiles. */
  profileHandles?: string[];
}

export function workload(data: WorkloadData, seed = 11): Workload {
  const rnd = new SeededRandom(seed);
  const keywords = keywordPool();
  for (let i = keywords.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [keywords[i], keywords[j]] = [keywords[j]!, keywords[i]!];
  }
  const popularity = new Zipf(keywords.length);
  const pages = new Zipf(50, 0.8);
  const keyword = () => keywords[popularity.draw(rnd)]!;
  const companies = COMPANIES.map((c) => c.handle);
  const some = (values: readonly string[]) => rnd.some([...values], rnd.int(1, 2)).join(',');
  const page = () => `page=${pages.draw(rnd) + 1}&pageSize=${rnd.pick([10, 20, 20, 20, 50])}`;
  const day = 86_400_000;
  const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  const postSearch = () => {
    const q: string[] = [];
    if (rnd.chance(0.8)) q.push(`keyword=${encodeURIComponent(keyword())}`);
    if (rnd.chance(0.1)) q.push(`companyId=${rnd.pick(companies)}`);
    if (rnd.chance(0.2)) q.push(`hasImages=${rnd.chance(0.8)}`);
    if (rnd.chance(0.15)) q.push(`hasOg=${rnd.chance(0.8)}`);
    if (rnd.chance(0.15)) q.push(`postedAfter=${isoDay(Date.now() - rnd.int(1, 700) * day)}T00:00:00Z`);
    if (rnd.chance(0.05)) q.push(`postedBefore=${isoDay(Date.now() - rnd.int(1, 300) * day)}T00:00:00Z`);
    q.push(`sort=${rnd.chance(0.5) ? 'RELEVANCE' : 'RECENT'}`, page());
    return `/api/v1/posts?${q.join('&')}`;
  };
  const jobSearch = () => {
    const q: string[] = [];
    if (rnd.chance(0.5)) q.push(`keyword=${encodeURIComponent(keyword())}`);
    if (rnd.chance(0.3)) q.push(`jobCategories=${some(catalogCodes('job-categories'))}`);
    if (rnd.chance(0.3)) q.push(`seniorities=${some(catalogCodes('seniorities'))}`);
    if (rnd.chance(0.3)) q.push(`employmentTypes=${some(catalogCodes('employment-types'))}`);
    if (rnd.chance(0.2)) q.push(`companySizes=${some(catalogCodes('company-sizes'))}`);
    if (rnd.chance(0.3)) q.push(`workTypes=${some(catalogCodes('work-types'))}`);
    if (rnd.chance(0.1)) q.push(`companyId=${rnd.pick(companies)}`);
    q.push(`sort=${rnd.pick(['RELEVANCE_DESC', 'DATE_DESC', 'POPULARITY_DESC'])}`, page());
    q.push(...placeAndPay());
    return `/api/v1/jobs?${q.join('&')}`;
  };
  // Where and how much (docs/search.md), drawn from a generator of their own, so every other parameter of every
  // request is what it was before jobs had places and pay.
  const extra = new SeededRandom(seed + 1);
  const placeAndPay = (): string[] => {
    const q: string[] = [];
    const roll = extra.next();
    if (roll < 0.1) {
      const place = extra.pick(Object.values(PLACES_OF_CITY).flat());
      q.push(`near=${place.latitude},${place.longitude}`, `radiusKm=${extra.pick([5, 10, 25, 50])}`);
      if (extra.chance(0.3)) q.push('includeRemote=true');
    } else if (roll < 0.2) {
      q.push(
        extra.chance(0.5)
          ? `regions=${encodeURIComponent(extra.pick(['서울', '경기', '부산']))}`
          : `countries=${extra.pick(['KR', 'JP', 'KR,JP,US'])}`,
      );
    }
    if (extra.chance(0.1)) {
      q.push('salaryCurrency=KRW', `salaryMin=${extra.int(3, 10) * 10_000_000}`);
      if (extra.chance(0.3)) q.push(`salaryMax=${extra.int(10, 15) * 10_000_000}`);
      if (extra.chance(0.3)) q.push('includeUnstatedSalary=true');
    }
    if (extra.chance(0.05)) q.push('typoTolerance=true');
    return q;
  };
  // Company searches from a generator of their own too: words of company names, descriptions and places, and every
  // company filter and sort (docs/companies.md).
  const byCompany = new SeededRandom(seed + 2);
  const companyWords = [
    ...new Set([
      ...NAME_STARTS,
      ...NAME_ENDS.map((end) => end.trim()),
      ...TECHS,
      ...CITIES.map((city) => city.ko),
      ...ROLES.map((role) => role.name.ko),
      'fintech',
      '핀테크',
      'software',
    ]),
  ];
  const companyPopularity = new Zipf(companyWords.length);
  const companySearch = () => {
    const r = byCompany;
    const q: string[] = [];
    if (r.chance(0.6)) q.push(`keyword=${encodeURIComponent(companyWords[companyPopularity.draw(r)]!)}`);
    if (r.chance(0.3)) q.push(`industries=${r.some(catalogCodes('job-industries'), r.int(1, 2)).join(',')}`);
    if (r.chance(0.2)) q.push(`companySizes=${r.some(catalogCodes('company-sizes'), r.int(1, 2)).join(',')}`);
    if (r.chance(0.15)) q.push(`fundingStages=${r.some([...FUNDING], r.int(1, 2)).join(',')}`);
    if (r.chance(0.15)) q.push(`regions=${encodeURIComponent(r.pick(['서울', '경기', '부산']))}`);
    if (r.chance(0.1)) {
      const place = r.pick(Object.values(PLACES_OF_CITY).flat());
      q.push(`near=${place.latitude},${place.longitude}`, `radiusKm=${r.pick([5, 10, 25])}`);
    }
    if (r.chance(0.2)) q.push(`hiring=${r.chance(0.8)}`);
    if (r.chance(0.1)) q.push(`foundedFrom=${r.int(1980, 2020)}`);
    q.push(`sort=${r.pick(['RELEVANCE', 'RELEVANCE', 'HIRING_DESC', 'NAME', 'RECENT'])}`);
    q.push(`page=${pages.draw(r) + 1}&pageSize=${r.pick([10, 20, 20, 50])}`);
    return `/api/v1/companies?${q.join('&')}`;
  };
  // Profile searches from a generator of their own: skills, role words and names, places, current companies, open to
  // work (docs/profiles.md), pages within the 1,000 results a search serves.
  const byProfile = new SeededRandom(seed + 3);
  const profileWords = [
    ...new Set([...SKILLS.map((skill) => skill.split(' ')[0]!), ...ROLES.map((role) => role.name.ko), '김', '이민준']),
  ];
  const profilePopularity = new Zipf(profileWords.length);
  const profilePages = new Zipf(20, 0.8);
  const profileSearch = () => {
    const r = byProfile;
    const q: string[] = [];
    if (r.chance(0.6)) q.push(`keyword=${encodeURIComponent(profileWords[profilePopularity.draw(r)]!)}`);
    if (r.chance(0.3)) q.push(`skills=${r.some(SKILLS, r.int(1, 2)).map(encodeURIComponent).join(',')}`);
    if (r.chance(0.15)) q.push(`regions=${encodeURIComponent(r.pick(['서울', '경기', '부산']))}`);
    if (r.chance(0.1)) q.push(`companyId=${r.pick(data.companyHandles)}`);
    if (r.chance(0.1)) {
      const place = r.pick(Object.values(PLACES_OF_CITY).flat());
      q.push(`near=${place.latitude},${place.longitude}`, `radiusKm=${r.pick([5, 10, 25])}`);
    }
    if (r.chance(0.2)) q.push('openToWork=true');
    q.push(`sort=${r.pick(['RELEVANCE', 'RELEVANCE', 'RECENT'])}`);
    q.push(`page=${profilePages.draw(r) + 1}&pageSize=${r.pick([10, 20, 20, 50])}`);
    return `/api/v1/profiles?${q.join('&')}`;
  };
  const profiles = data.profileHandles ?? [];
  const distinct = (make: () => string) => new Set(Array.from({ length: 20_000 }, make)).size;
  const syllables = keywords.filter((k) => /^\p{Script=Hangul}$/u.test(k));
  return {
    postSearch,
    jobSearch,
    postDetail: () => `/api/v1/posts/${data.postIds[rnd.int(0, data.postIds.length - 1)]}`,
    jobDetail: () => `/api/v1/jobs/${rnd.pick(data.jobIds)}`,
    companySearch,
    companyDetail: () => `/api/v1/companies/${byCompany.pick(data.companyHandles)}`,
    profileSearch,
    profileDetail: () => `/api/v1/profiles/${byProfile.pick(profiles)}`,
    headers: () => ({ 'x-svc-api-key': rnd.pick(data.apiKeys), 'accept-language': rnd.pick(LANGUAGES) }),
    // 다 (습니다, 했다…) is in three of four generated posts; fall back to any syllable for other data.
    broadest: syllables.includes('다') ? '다' : (syllables[0] ?? '다'),
    distinct: { postSearches: distinct(postSearch), jobSearches: distinct(jobSearch) },
  };
}
