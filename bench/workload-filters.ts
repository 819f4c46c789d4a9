/**
 * A workload URL (bench/workload.ts) as the service's own search filter: its query read as the route's schema reads
 * it (conversion and defaults), then the filter the service builds from it. The tools that time the indexes or a
 * page's items without HTTP replay searches through these, so they measure the filters the service searches with.
 */
import { Value } from '@sinclair/typebox/value';
import { JobSearchQuery, type JobSearchQueryInput } from '../src/modules/jobs/job-schemas.js';
import { jobSearchFilter } from '../src/modules/jobs/job-service.js';
import { PostSearchQuery, type PostSearchQueryInput } from '../src/modules/posts/post-schemas.js';
import { postSearchFilter } from '../src/modules/posts/post-service.js';
import type { JobSearchFilter } from '../src/modules/jobs/job-index.js';
import type { PostSearchFilter } from '../src/modules/posts/post-index.js';

type CompanyIds = { companyIdByHandle(handle: string): Promise<number | undefined> };

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

/** The post search filter of `url` (null: nothing can match); `pageSize` replaces the URL's. */
export function postFilterOf(
  url: string,
  timeZone: string,
  accounts: CompanyIds,
  pageSize?: number,
): Promise<PostSearchFilter | null> {
  const query = Value.Default(PostSearchQuery, Value.Convert(PostSearchQuery, queryOf(url))) as PostSearchQueryInput;
  return postSearchFilter({ ...query, pageSize: pageSize ?? query.pageSize }, timeZone, (handle) =>
    accounts.companyIdByHandle(handle),
  );
}

/** The job search filter of `url` at `now` (null: nothing can match); `pageSize` replaces the URL's. */
export function jobFilterOf(
  url: string,
  now: number,
  accounts: CompanyIds,
  pageSize?: number,
): Promise<JobSearchFilter | null> {
  const query = Value.Default(JobSearchQuery, Value.Convert(JobSearchQuery, queryOf(url))) as JobSearchQueryInput;
  return jobSearchFilter({ ...query, pageSize: pageSize ?? query.pageSize }, now, (handle) =>
    accounts.companyIdByHandle(handle),
  );
}
