/**
 * A change's `data` as this release shows it, whichever release recorded it (docs/changes.md, "Changes recorded by
 * an earlier release"). A change keeps the resource as its writer's public read showed it; during a rolling upgrade
 * the previous release still writes, and its rows lack the fields added since. Each such field gets the value the
 * public read gives a resource stored before the field existed, so every page of the feed and every webhook body
 * keeps the shape the OpenAPI document promises.
 */
import type { ResourceType } from './change-log.js';

/** Fields each resource's public read gained after 1.0.0-beta.1, with their value for a row recorded without them. */
export const FIELDS_ADDED_SINCE_FIRST_RELEASE: Record<ResourceType, Record<string, unknown>> = {
  post: {},
  // Migration 034: where a job is and what it pays; a job stored without them has neither.
  job: { location: null, salary: null },
  event: {},
  company: {},
  profile: {},
};

/** Parses a stored change's data and fills in what an earlier release did not record. */
export function storedData(resourceType: ResourceType, text: string | null): unknown {
  if (text === null) return null;
  const data = JSON.parse(text) as Record<string, unknown>;
  return { ...FIELDS_ADDED_SINCE_FIRST_RELEASE[resourceType], ...data };
}
