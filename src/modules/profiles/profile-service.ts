import { pageOf, withCorrection, type PageResult } from '../../schemas/common.js';
import { noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import { highlightsOf } from '../../search/highlights.js';
import type { Searchable } from '../../search/search-index.js';
import { queryTerms, queryWords } from '../../search/search-text.js';
import { ApiError } from '../../shared/api-error.js';
import { inIdOrder } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { toUtcIso } from '../../shared/time.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import { nearPoint } from '../jobs/job-place-and-pay.js';
import { RADIUS_KM } from '../jobs/job-schemas.js';
import type { ProfileSearchFilter } from './profile-index.js';
import type { ProfileReadQuota } from './profile-read-quota.js';
import type { ProfileDetailRow, ProfileRepository, PublicProfileRow } from './profile-repository.js';
import {
  PROFILE_SEARCH_DEPTH,
  type MyProfileDto,
  type ProfileDetailDto,
  type ProfileEducationDto,
  type ProfileExperienceDto,
  type ProfileLinkDto,
  type ProfileLocationDto,
  type ProfileSearchQueryInput,
  type ProfileSuggestionDto,
  type ProfileSummaryDto,
} from './profile-schemas.js';

/** A profile's JSON column as its list. */
export const listOf = <T>(text: string): T[] => JSON.parse(text) as T[];

/** A profile's place, or null when the member gave none. */
export function locationOf(row: {
  location_country: string | null;
  location_region: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
}): ProfileLocationDto | null {
  if (row.location_country === null) return null;
  const point = row.location_latitude !== null && row.location_longitude !== null;
  return {
    country: row.location_country,
    region: row.location_region,
    latitude: point ? Number(row.location_latitude) : null,
    longitude: point ? Number(row.location_longitude) : null,
  };
}

/** The experience a member is in now (the first without an end), as a search page shows it; null for none. */
export function currentPosition(experiences: readonly ProfileExperienceDto[]): string | null {
  const current = experiences.find((e) => e.endDate === null);
  return current
    ? JSON.stringify({ title: current.title, companyName: current.companyName, companyId: current.companyId })
    : null;
}

/**
 * Profile search and reads for apps (docs/profiles.md): only public profiles of members in use, only their shown
 * sections. A profile that is not there to show (never written, private, disabled) is one 404, found the same way.
 */
export class ProfileService {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly index: Searchable<ProfileSearchFilter>,
    private readonly version: { read(): Promise<number> },
    private readonly accounts: AccountsRepository,
    private readonly quota: ProfileReadQuota,
    private readonly links: Links,
    private readonly clock: () => number,
  ) {}

  async search(query: ProfileSearchQueryInput): Promise<PageResult<ProfileSummaryDto>> {
    const { page, pageSize } = query;
    const offset = (page - 1) * pageSize;
    if (offset >= PROFILE_SEARCH_DEPTH)
      throw new ApiError(
        'C0005',
        `Profile search reads no further than result ${PROFILE_SEARCH_DEPTH.toLocaleString('en')}: page ${page} of ${pageSize} starts at result ${offset + 1}; narrow the search with a keyword or filters`,
        'page',
      );
    if (query.near === undefined && query.radiusKm !== undefined)
      throw new ApiError('C0005', 'Query parameter "radiusKm" is only taken with "near"', 'radiusKm');
    const keyword = query.keyword?.trim() ?? '';
    const terms = keyword === '' ? null : queryTerms(keyword);
    const empty = () => pageOf<ProfileSummaryDto>([], 0, page, pageSize, noMatchFacets(query.facets));
    if (terms !== null && terms.length === 0) return empty();
    const filter: ProfileSearchFilter = {
      terms,
      skills: query.skills,
      countries: query.countries,
      regions: query.regions,
      openToWork: query.openToWork,
      order: query.sort === 'RECENT' ? 'updated' : 'rank',
      // The page stops at the bound: its last items are not read when it reaches past it.
      limit: Math.min(pageSize, PROFILE_SEARCH_DEPTH - offset),
      offset,
      facets: query.facets && [...new Set(query.facets)],
    };
    if (query.companyId?.length) {
      const ids = [...(await this.accounts.companyIdsByHandle(query.companyId)).values()];
      if (ids.length === 0) return empty();
      filter.companyIds = ids;
    }
    if (query.typoTolerance && terms !== null) filter.typoWords = queryWords(keyword);
    if (query.near !== undefined)
      filter.near = { ...nearPoint(query.near), radiusKm: query.radiusKm ?? RADIUS_KM.default };
    const found = await this.index.search(filter, await this.version.read());
    const [rows, facets] = await Promise.all([
      this.profiles.items(found.ids),
      withCompanyHandles(found.facets, (ids) => this.accounts.companyHandles(ids)),
    ]);
    const items = inIdOrder(found.ids, rows).map((row) => this.summaryOf(row));
    const matched = new Set([...(terms ?? []), ...(found.corrections ?? [])]);
    // Why each matched: its name and headline.
    const highlighted = query.highlight
      ? items.map((item) => ({
          ...item,
          highlights: highlightsOf(
            [
              ['name', item.name],
              ['headline', item.headline],
            ],
            matched,
          ),
        }))
      : items;
    return withCorrection(pageOf(highlighted, found.total, page, pageSize, facets), found.didYouMean);
  }

  /**
   * The public profile of `handle`, read for `caller` (counted against its daily bound; a caller null is the feed,
   * which reads for every app and is bounded by what it shows).
   */
  async detail(handle: string, caller: string | null): Promise<ProfileDetailDto> {
    const row = await this.profiles.byHandle(handle);
    if (!row) throw new ApiError('C0008', `Profile ${handle} does not exist`, 'handle');
    if (caller !== null) await this.quota.admit(caller, Number(row.id));
    return this.detailOf(row);
  }

  /** Skills of public profiles beginning with what the user has typed. */
  async suggestions(prefix: string, limit: number): Promise<ProfileSuggestionDto[]> {
    const typed = prefix.trim();
    if (typed === '')
      throw new ApiError('C0005', 'Query parameter "prefix" must hold a letter or a digit, not only spaces', 'prefix');
    const { items } = await this.index.suggest(typed, limit, this.clock(), await this.version.read());
    return items as ProfileSuggestionDto[];
  }

  /** The member's own profile, whatever its visibility; the e-mail address only with `email`. */
  async mine(userId: number, withEmail: boolean): Promise<MyProfileDto> {
    const [user, row] = await Promise.all([this.accounts.findUserById(userId), this.profiles.own(userId)]);
    if (!user) throw new ApiError('C0008', 'The account of this token does not exist any more', 'sub');
    return {
      handle: user.handle,
      name: user.name,
      imageUrl: this.links.image(user.image_url),
      ...(withEmail && { email: user.email }),
      headline: row?.headline ?? null,
      skills: row ? listOf<string>(row.skills) : [],
      location: row ? locationOf(row) : null,
      experiences: row ? listOf<ProfileExperienceDto>(row.experiences) : [],
      educations: row ? listOf<ProfileEducationDto>(row.educations) : [],
      links: row ? listOf<ProfileLinkDto>(row.links) : [],
      openToWork: row?.open_to_work === 1,
      visibility: {
        profile: row?.visibility ?? 'PRIVATE',
        experiences: (row?.show_experiences ?? 1) === 1,
        educations: (row?.show_educations ?? 1) === 1,
        links: (row?.show_links ?? 1) === 1,
        openToWork: (row?.show_open_to_work ?? 1) === 1,
      },
      webUrl: this.links.profile(user.handle),
      updatedAt: row ? toUtcIso(Number(row.updated_at)) : null,
    };
  }

  private summaryOf(row: PublicProfileRow): ProfileSummaryDto {
    const summary: ProfileSummaryDto = {
      handle: row.handle,
      name: row.name,
      imageUrl: this.links.image(row.image_url),
      headline: row.headline,
      skills: listOf<string>(row.skills),
      location: locationOf(row),
      certificated: row.certificated === 1,
      webUrl: this.links.profile(row.handle),
    };
    if (row.show_experiences === 1)
      summary.currentPosition =
        row.current_position === null
          ? null
          : (JSON.parse(row.current_position) as NonNullable<ProfileSummaryDto['currentPosition']>);
    if (row.show_open_to_work === 1) summary.openToWork = row.open_to_work === 1;
    return summary;
  }

  private detailOf(row: ProfileDetailRow): ProfileDetailDto {
    const detail: ProfileDetailDto = { ...this.summaryOf(row), updatedAt: toUtcIso(Number(row.updated_at)) };
    if (row.show_experiences === 1) detail.experiences = listOf<ProfileExperienceDto>(row.experiences);
    if (row.show_educations === 1) detail.educations = listOf<ProfileEducationDto>(row.educations);
    if (row.show_links === 1) detail.links = listOf<ProfileLinkDto>(row.links);
    return detail;
  }
}
