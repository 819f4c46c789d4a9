import { ApiError } from '../../shared/api-error.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { ProfileRepository } from './profile-repository.js';
import type { ProfileWriteRepository } from './profile-write-repository.js';
import { currentPosition, listOf, locationOf } from './profile-service.js';
import type {
  ProfileEducationDto,
  ProfileExperienceDto,
  ProfileLinkDto,
  ProfileSection,
  ProfileUpdateInput,
} from './profile-schemas.js';

const invalid = (field: string, message: string) => new ApiError('C0005', message, field);

/** One decimal of a degree (about 11 km): a member's place is a town, never where they live. */
const coarse = (degrees: number) => Math.round(degrees * 10) / 10;

const COLUMN_OF_SECTION = {
  experiences: 'show_experiences',
  educations: 'show_educations',
  links: 'show_links',
  openToWork: 'show_open_to_work',
} as const;

/** A member keeps their own profile (scope profile:write): any of it, its visibility included, or none of it. */
export class ProfileWriteService {
  constructor(
    private readonly writes: ProfileWriteRepository,
    private readonly profiles: ProfileRepository,
    private readonly accounts: AccountsRepository,
    private readonly clock: () => number,
  ) {}

  /** Applies `input` to the member's profile (written with defaults on the first change: private, every section shown). */
  async update(userId: number, input: ProfileUpdateInput): Promise<void> {
    const now = this.clock();
    const stored = await this.profiles.own(userId);
    const experiences = input.experiences ?? (stored ? listOf<ProfileExperienceDto>(stored.experiences) : []);
    const educations = input.educations ?? (stored ? listOf<ProfileEducationDto>(stored.educations) : []);
    const links = input.links ?? (stored ? listOf<ProfileLinkDto>(stored.links) : []);
    checkSpans('experiences', experiences);
    checkSpans('educations', educations);
    links.forEach((link, i) => {
      if (!/^https?:\/\/[^\s/]+/.test(link.url))
        throw invalid(`request.links[${i}].url`, `links[${i}].url must be an absolute http(s) URL`);
    });
    const companies = await this.accounts.companyIdsByHandle([
      ...new Set(experiences.flatMap((e) => (e.companyId ? [e.companyId] : []))),
    ]);
    experiences.forEach((e, i) => {
      if (e.companyId && !companies.has(e.companyId))
        throw invalid(
          `request.experiences[${i}].companyId`,
          `experiences[${i}].companyId names no company of the directory (${e.companyId}); give null for a company that is not listed`,
        );
    });
    const location = input.location === undefined ? (stored ? locationOf(stored) : null) : input.location;
    if (location && (location.latitude === null) !== (location.longitude === null))
      throw invalid('request.location', 'location takes latitude and longitude together, or neither');
    const current = experiences.find((e) => e.endDate === null);
    const skills = input.skills ?? (stored ? listOf<string>(stored.skills) : []);
    const shown = (section: ProfileSection) =>
      input.visibility?.[section] ?? (stored ? stored[COLUMN_OF_SECTION[section]] === 1 : true);
    const visibility = input.visibility?.profile ?? stored?.visibility ?? 'PRIVATE';
    const member = await this.writes.member(userId);
    if (!member) throw new ApiError('C0008', 'The account of this token does not exist any more', 'sub');
    const publicBefore = stored?.visibility === 'PUBLIC' && member.disabled_at === null;
    await this.writes.transaction(async (repo) => {
      await repo.save({
        user_id: userId,
        headline: input.headline === undefined ? (stored?.headline ?? null) : input.headline,
        skills: JSON.stringify(distinctSkills(skills)),
        experiences: JSON.stringify(experiences),
        educations: JSON.stringify(educations),
        links: JSON.stringify(links),
        location_country: location?.country ?? null,
        location_region: location?.region ?? null,
        location_latitude: location?.latitude == null ? null : coarse(location.latitude),
        location_longitude: location?.longitude == null ? null : coarse(location.longitude),
        open_to_work: (input.openToWork ?? stored?.open_to_work === 1) ? 1 : 0,
        visibility,
        show_experiences: shown('experiences') ? 1 : 0,
        show_educations: shown('educations') ? 1 : 0,
        show_links: shown('links') ? 1 : 0,
        show_open_to_work: shown('openToWork') ? 1 : 0,
        current_position: currentPosition(experiences),
        current_company_id: current?.companyId ? companies.get(current.companyId)! : null,
        created_at: stored ? Number(stored.created_at) : now,
        updated_at: now,
      });
      await repo.recordChange(
        userId,
        member.handle,
        publicBefore,
        visibility === 'PUBLIC' && member.disabled_at === null,
      );
    });
  }

  /** Deletes the member's profile: gone from search, reads and the feed's content (`profile.deleted`). */
  async remove(userId: number): Promise<void> {
    const member = await this.writes.member(userId);
    if (!member || member.created_at === null) throw new ApiError('C0008', 'You have no profile to delete', 'profile');
    await this.writes.transaction(async (repo) => {
      await repo.remove(userId);
      await repo.recordChange(userId, member.handle, member.visibility === 'PUBLIC', false);
    });
  }
}

/** Each item's span in order: a start no later than its end. */
function checkSpans(field: string, items: ReadonlyArray<{ startDate: string | null; endDate: string | null }>): void {
  items.forEach((item, i) => {
    if (item.startDate !== null && item.endDate !== null && item.startDate > item.endDate)
      throw invalid(
        `request.${field}[${i}].endDate`,
        `${field}[${i}] ends (${item.endDate}) before it starts (${item.startDate})`,
      );
  });
}

/** Skills as given, each once whatever its case and spacing. */
function distinctSkills(skills: readonly string[]): string[] {
  const seen = new Set<string>();
  return skills
    .map((skill) => skill.trim().replace(/\s+/g, ' '))
    .filter((skill) => {
      const key = skill.normalize('NFKC').toLowerCase();
      if (skill === '' || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
