/**
 * What the profile index (profile-index.ts) holds of a public profile: only what an app key may see of it, so that a
 * hidden section can never be found, counted or suggested. Its name, headline, skills and (when experiences are shown)
 * job titles as text; its skills, current company, place and (when shown) openness to work as facets.
 */
import { FACETS } from '../../search/fields.js';
import type { SearchDocument } from '../../search/posting-index.js';

/** A profile as the index reads it: its row's columns with the member's name. */
export interface ProfileFacts {
  name: string;
  headline: string | null;
  skills: string[];
  /** The job titles of its experiences; empty when the member hides them. */
  titles: string[];
  /** The company of its current experience, when experiences are shown and the company is listed. */
  currentCompanyId: number | null;
  /** Shown and true. */
  openToWork: boolean;
  location_country: string | null;
  location_region: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
}

/** A profile's coordinates; null when the member gave none. */
export function profilePoint(
  profile: Pick<ProfileFacts, 'location_latitude' | 'location_longitude'>,
): { latitude: number; longitude: number } | null {
  return profile.location_latitude === null || profile.location_longitude === null
    ? null
    : { latitude: Number(profile.location_latitude), longitude: Number(profile.location_longitude) };
}

export function profileDocument(profile: ProfileFacts): SearchDocument {
  const facets = [...new Set(profile.skills.map(FACETS.skill))];
  if (profile.currentCompanyId !== null) facets.push(FACETS.company(profile.currentCompanyId));
  if (profile.openToWork) facets.push(FACETS.openToWork);
  if (profile.location_country !== null) facets.push(FACETS.country(profile.location_country));
  if (profile.location_region !== null) facets.push(FACETS.region(profile.location_region));
  // A member's point is a town (one decimal of a degree), shared by many: `near` unites the points within its radius.
  const point = profilePoint(profile);
  if (point) facets.push(FACETS.point(`${point.latitude},${point.longitude}`));
  return {
    texts: [profile.name, profile.headline ?? '', profile.skills.join(' '), profile.titles.join(' ')],
    facets,
  };
}
