/**
 * The tools the MCP endpoint offers agents (docs/mcp.md): each is one operation of the public API, described for an
 * agent, with the operation's own request schema as its input and its response schema as its output (one source:
 * the TypeBox schemas the API validates and serializes with).
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { ChangePage, ChangeQuery } from '../changes/change-schemas.js';
import { CodeList, JobIndustryList } from '../codes/code-routes.js';
import { CompanyDetail, CompanyIdParams, CompanyPage, CompanySearchQuery } from '../companies/company-schemas.js';
import {
  MyProfile,
  ProfileDetail,
  ProfileHandleParams,
  ProfilePage,
  ProfileSearchQuery,
} from '../profiles/profile-schemas.js';
import { EventDetail, EventIdParams, EventPage, EventSearchQuery } from '../events/event-schemas.js';
import { JobDetail, JobIdParams, JobPage, JobSearchQuery } from '../jobs/job-schemas.js';
import { CompanyPermissions } from '../me/me-routes.js';
import { UserInfo } from '../oauth/userinfo-routes.js';
import { PostDetail, PostIdParams, PostPage, PostSearchQuery } from '../posts/post-schemas.js';
import { PostWriteRequest, PostWriteResponse } from '../posts/post-write-schemas.js';
import { CATALOG_NAMES } from '../../shared/catalog-data.js';
import { StringEnum } from '../../schemas/common.js';

export interface Tool {
  name: string;
  title: string;
  description: string;
  input: TObject;
  /** The response body's schema; an array is given to the agent under `wrap` (a tool's output is an object). */
  output: TSchema;
  wrap?: string;
  /** The API request the tool makes: its path, and which arguments go into it rather than the query. */
  path: (args: Record<string, unknown>) => string;
  inPath?: string[];
  /** A tool that acts for a user: the scope its Bearer token needs (an MCP token, docs/mcp.md). */
  scope?: string;
  /** A write: the API request's body, a multipart form with the JSON part `request` (the arguments). */
  write?: true;
}

const PAGING = 'Pages hold at most 50 items (`pageSize`, default 20); `totalItems` is exact.';

export const TOOLS: Tool[] = [
  {
    name: 'search_posts',
    title: 'Search posts',
    description: `Search the network's posts by keywords (every word must match; Korean, Japanese and Chinese match inside words), company handle, images, link cards and posting time, ranked by relevance or newest first. ${PAGING}`,
    input: PostSearchQuery,
    output: PostPage,
    path: () => '/api/v1/posts',
  },
  {
    name: 'get_post',
    title: 'Read a post',
    description: 'One post by its id (from search_posts or list_changes), with its mentions and the post it reposts.',
    input: PostIdParams,
    output: PostDetail,
    path: (a) => `/api/v1/posts/${String(a.postId)}`,
    inPath: ['postId'],
  },
  {
    name: 'search_jobs',
    title: 'Search job postings',
    description: `Search job postings by keywords, company, job category, seniority, employment type, company size and work type (codes from list_codes), country and region, distance from a point (\`near\`, \`radiusKm\`) and yearly pay in a currency (\`salaryMin\`, \`salaryMax\`, \`salaryCurrency\`), ranked by relevance or in the order \`sort\` names. ${PAGING}`,
    input: JobSearchQuery,
    output: JobPage,
    path: () => '/api/v1/jobs',
  },
  {
    name: 'get_job',
    title: 'Read a job posting',
    description:
      'One job posting by its id, with its full texts (duties, qualifications, benefits, hiring process) and how to apply.',
    input: JobIdParams,
    output: JobDetail,
    path: (a) => `/api/v1/jobs/${String(a.jobId)}`,
    inPath: ['jobId'],
  },
  {
    name: 'search_companies',
    title: 'Search companies',
    description: `Search the network's company directory by keywords (name, description, industry names), industry (job-industries codes from list_codes), size, funding stage, country and region, distance from a point, founding years, and whether a company is hiring now; each company says how many jobs it is hiring for. Sort by relevance, most hiring, name or newest. ${PAGING}`,
    input: CompanySearchQuery,
    output: CompanyPage,
    path: () => '/api/v1/companies',
  },
  {
    name: 'get_company',
    title: 'Read a company',
    description:
      'One company by its handle (the `company.id` of jobs, posts and events, or `companyId` from search_companies), with every industry, its links, offices and how many jobs it is hiring for now (search_jobs with its `companyId` lists them).',
    input: CompanyIdParams,
    output: CompanyDetail,
    path: (a) => `/api/v1/companies/${String(a.companyId)}`,
    inPath: ['companyId'],
  },
  {
    name: 'search_profiles',
    title: 'Search public profiles',
    description: `Search members' public profiles by keywords (name, headline, skills, job titles), skills, current company (company handles), country and region, distance from a point, and whether they are open to work; only what each member made public. Results stop at the 1,000th. ${PAGING}`,
    input: ProfileSearchQuery,
    output: ProfilePage,
    path: () => '/api/v1/profiles',
  },
  {
    name: 'get_profile',
    title: "Read a member's public profile",
    description:
      "One member's public profile by handle (a post's `author.id`, or `handle` from search_profiles): the sections the member shows, a hidden one absent; a private or unknown profile is error C0008. Each app reads a bounded number of distinct profiles a day.",
    input: ProfileHandleParams,
    output: ProfileDetail,
    path: (a) => `/api/v1/profiles/${String(a.handle)}`,
    inPath: ['handle'],
  },
  {
    name: 'search_events',
    title: 'Search events',
    description: `Search events by keywords, company, category, subject (codes from list_codes), online or offline, start dates and status (upcoming, ongoing, closed). ${PAGING}`,
    input: EventSearchQuery,
    output: EventPage,
    path: () => '/api/v1/events',
  },
  {
    name: 'get_event',
    title: 'Read an event',
    description: 'One event by its id, with its tickets, sessions, FAQs, hosts and attachments.',
    input: EventIdParams,
    output: EventDetail,
    path: (a) => `/api/v1/events/${String(a.eventId)}`,
    inPath: ['eventId'],
  },
  {
    name: 'list_codes',
    title: 'List a code catalog',
    description:
      'The codes a search filter or a posting takes (job categories, seniorities, employment types, company sizes, work types, job industries under their groups, event categories and subjects), with labels in the language asked for.',
    input: Type.Object({ catalog: StringEnum(CATALOG_NAMES, { description: 'The catalog' }) }),
    output: Type.Union([CodeList, JobIndustryList]),
    wrap: 'codes',
    path: (a) => `/api/v1/codes/${String(a.catalog)}`,
    inPath: ['catalog'],
  },
  {
    name: 'list_changes',
    title: 'What changed since a cursor',
    description:
      'The posts, jobs and events created, updated, closed or deleted after a cursor, in order: start with after="now" and keep `nextCursor`; a cursor older than the retention is error C0013 (read the current state again).',
    input: ChangeQuery,
    output: ChangePage,
    path: () => '/api/v1/changes',
  },
  {
    name: 'get_me',
    title: 'Who the user is',
    description:
      "The signed-in user this agent acts for: name, handle, picture and profile link (and e-mail with the email scope). Needs the user's consent (OAuth).",
    input: Type.Object({}),
    output: UserInfo,
    path: () => '/oauth/userinfo',
    scope: 'profile',
  },
  {
    name: 'get_my_profile',
    title: "The user's own profile",
    description:
      "The signed-in user's whole profile (headline, skills, experiences, educations, place, links, open to work) with what each section shows to others, hidden sections included. Needs the user's consent (OAuth).",
    input: Type.Object({}),
    output: MyProfile,
    path: () => '/api/v1/me/profile',
    scope: 'profile',
  },
  {
    name: 'list_my_company_permissions',
    title: 'What the user may do at their companies',
    description:
      "The companies where the user holds company-wide roles, and what each role lets them do (post as the company, manage jobs or events). Needs the user's consent (OAuth).",
    input: Type.Object({}),
    output: CompanyPermissions,
    path: () => '/api/v1/me/company-permissions',
    scope: 'company:manage:read',
  },
  {
    name: 'create_post',
    title: 'Write a post as the user',
    description:
      "Publishes a post in the user's name: text (at most 3,000 characters; @handle mentions a company or member), optionally a link whose card is fetched, or a repost of another post. Visible to everyone at once; the user can delete it. Needs the user's consent (OAuth).",
    input: PostWriteRequest,
    output: PostWriteResponse,
    path: () => '/api/v1/posts',
    scope: 'post:write',
    write: true,
  },
];
