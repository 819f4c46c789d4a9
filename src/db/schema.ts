import type { ColumnType, Generated } from 'kysely';

/**
 * The Kysely view of the schema, shared by both engines. Times are epoch milliseconds; booleans are
 * 0/1 integers and JSON values are text, so both engines return identical rows.
 */

type Bool = number;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  email_verified: Bool;
  password_hash: string | null;
  name: string;
  handle: string;
  image_url: string | null;
  certificated: Bool;
  locale: string;
  created_at: number;
  updated_at: number;
  /** Since when an operator has disabled the account (`users disable`); null while it is in use. */
  disabled_at: Generated<number | null>;
}

export interface CompaniesTable {
  id: Generated<number>;
  handle: string;
  name: string;
  logo_url: string | null;
  industry: string;
  size: string;
  certificated: Bool;
  created_at: number;
  /** Migration 036 (docs/companies.md); null in rows written before it. */
  description: string | null;
  language: string | null;
  /** Every industry code, JSON array, `industry` first; null: `industry` alone. */
  industries: string | null;
  employee_count: number | null;
  founded_year: number | null;
  funding_stage: string | null;
  website: string | null;
  /** JSON `[{type, url}]`. */
  links: string | null;
  /** JSON `[{name, country, region, locality, address}]`. */
  offices: string | null;
  location_country: string | null;
  location_region: string | null;
  location_locality: string | null;
  location_address: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
  updated_at: number | null;
}

export interface CompanyTranslationsTable {
  company_id: number;
  language: string;
  description: string;
}

/** A member's professional profile (migration 037, docs/profiles.md). JSON columns hold arrays. */
export interface ProfilesTable {
  user_id: number;
  headline: string | null;
  skills: Generated<string>;
  experiences: Generated<string>;
  educations: Generated<string>;
  links: Generated<string>;
  location_country: string | null;
  location_region: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
  open_to_work: Generated<Bool>;
  visibility: Generated<'PUBLIC' | 'PRIVATE'>;
  show_experiences: Generated<Bool>;
  show_educations: Generated<Bool>;
  show_links: Generated<Bool>;
  show_open_to_work: Generated<Bool>;
  /** JSON `{title, companyName, companyId}` of the first experience without an end; null: none. */
  current_position: string | null;
  current_company_id: number | null;
  created_at: number;
  updated_at: number;
}

/** A profile an app read through its detail on a UTC day (`day`: days since 1970-01-01). */
export interface ProfileReadsTable {
  caller: string;
  day: number;
  user_id: number;
}

export interface ProfileReadDaysTable {
  caller: string;
  day: number;
  reads: number;
}

export interface CompanyRolesTable {
  company_id: number;
  user_id: number;
  role: string;
  created_at: number;
}

export interface ResourceRolesTable {
  user_id: number;
  company_id: number;
  resource_type: string;
  resource_id: string;
  role: string;
  created_at: number;
}

export interface AppsTable {
  id: Generated<number>;
  name: string;
  owner_user_id: number | null;
  created_at: number;
  description: Generated<string>;
  homepage_url: string | null;
  privacy_url: string | null;
  deleted_at: number | null;
  /** JSON array of origins the app's key may be used from in a browser. */
  web_origins: Generated<string>;
}

export interface AppKeysTable {
  id: Generated<number>;
  app_id: number;
  key_hash: string;
  key_hint: string;
  created_at: number;
  revoked_at: number | null;
  /** End of a rotation's overlap: the key stops working then (null: until revoked). */
  expires_at: number | null;
}

export interface AppUsageTable {
  app_id: number;
  /** The minute's start, epoch ms. */
  minute: number;
  operation: string;
  /** 2xx, 3xx, 4xx, 5xx, or 429 on its own. */
  status_class: string;
  calls: number;
}

export interface AppAuditTable {
  id: Generated<number>;
  app_id: number;
  actor_user_id: number | null;
  action: string;
  detail: Generated<string>;
  created_at: number;
}

/** An app's latest API requests (the console's request log), bounded per app. */
export interface AppRequestsTable {
  id: Generated<number>;
  app_id: number;
  at: number;
  operation: string;
  status: number;
  code: string | null;
  duration_ms: number;
  request_id: string;
}

/** A link sent by e-mail: a password reset or an address check (only its secret's hash). */
export interface AccountLinksTable {
  token_hash: string;
  user_id: number;
  purpose: 'reset' | 'verify';
  email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PostsTable {
  id: Generated<number>;
  author_type: string;
  author_user_id: number | null;
  author_company_id: number | null;
  content: string | null;
  language: string;
  reposted_post_id: number | null;
  image_count: number;
  has_og: Bool;
  like_count: number | null;
  comment_count: number | null;
  posted_at: number;
  updated_at: number;
}

export interface PostImagesTable {
  id: Generated<number>;
  post_id: number;
  position: number;
  media_key: string;
  content_type: string;
  byte_size: number;
  width: number | null;
  height: number | null;
}

export interface PostOgCardsTable {
  post_id: number;
  link: string;
  title: string | null;
  source: string | null;
  image: string | null;
  description: string | null;
  fetched_at: number | null;
}

export interface PostMentionsTable {
  post_id: number;
  position: number;
  mention_type: string;
  handle: string;
  name: string;
}

export interface PostTranslationsTable {
  post_id: number;
  language: string;
  content: string;
}

export interface JobsTable {
  id: Generated<number>;
  company_id: number;
  author_user_id: number | null;
  job_type: string;
  status: string;
  title: string;
  subtitle: string;
  job_category: string;
  work_type: string;
  allow_remote: Bool;
  language: string;
  description: string;
  duty: string;
  minimum_qualification: string;
  preferred_qualification: string;
  benefit: string;
  hire_process: string;
  hire_notes: string;
  apply_type: string;
  apply_url: string | null;
  email: string | null;
  notify_emails: string;
  military: Bool;
  veteran: Bool;
  start_at: number | null;
  end_at: number | null;
  view_count: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** The recruiting end a `job.closed` change was recorded for by the hiring sweep (migration 021). */
  closed_event_for: Generated<number | null>;
  /** The job's seniority codes in catalog order, joined by commas ('' for none; shared/job-codes.ts; migration 024). */
  seniorities: Generated<string>;
  /** The job's employment type codes, the same way. */
  employment_types: Generated<string>;
  /** Where the job is (migration 034): an ISO 3166-1 country, then each part as given; all null for a job without a place. */
  location_country: Generated<string | null>;
  location_region: Generated<string | null>;
  location_locality: Generated<string | null>;
  location_address: Generated<string | null>;
  location_latitude: Generated<number | null>;
  location_longitude: Generated<number | null>;
  /** What it pays, as stated (an amount per `salary_period` in `salary_currency`, ISO 4217); all null when not stated. */
  salary_min: Generated<number | null>;
  salary_max: Generated<number | null>;
  salary_currency: Generated<string | null>;
  salary_period: Generated<string | null>;
}

export interface JobImagesTable {
  job_id: number;
  position: number;
  media_key: string;
}
export interface JobSettingsTable {
  job_id: number;
  position: number;
  setting_type: Generated<string>;
  title: string;
  required: Bool;
  upload_type: string;
}

export interface JobTranslationsTable {
  job_id: number;
  language: string;
  title: string;
  subtitle: string;
  description: string;
  duty: string;
  minimum_qualification: string;
  preferred_qualification: string;
  benefit: string;
  hire_process: string;
  hire_notes: string;
}

export interface EventsTable {
  id: string;
  company_id: number;
  author_user_id: number | null;
  status: string;
  event_name: string;
  description: string;
  event_open_type: string;
  start_at: number;
  end_at: number;
  online_link: string | null;
  country: string | null;
  region: string | null;
  locality: string | null;
  location_title: string | null;
  location_address: string | null;
  location_detail: string | null;
  location_description: string | null;
  location_hidden: Bool;
  guest_hidden: Bool;
  /** PUBLIC, INVITE or LINK; OPEN or REGISTERED (the reference's names). */
  access_type: Generated<string>;
  join_type: Generated<string>;
  latitude: number | null;
  longitude: number | null;
  banner_key: string | null;
  language: string;
  view_count: number;
  guest_count: number;
  /** The event's number in the search index (given by the database at insert). */
  search_number: Generated<number>;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export interface EventCategoriesTable {
  event_id: string;
  category: string;
}
export interface EventAttachmentsTable {
  event_id: string;
  position: number;
  media_key: string;
  file_name: string | null;
}
export interface EventSubjectsTable {
  event_id: string;
  subject: string;
}
export interface EventTranslationsTable {
  event_id: string;
  language: string;
  event_name: string;
  description: string;
}

export interface EventTicketsTable {
  id: Generated<number>;
  event_id: string;
  ticket_type: string;
  ticket_name: string;
  description: string;
  approval_required: Bool;
  waiting_required: Bool;
  max_count: number | null;
  sales_start_at: number | null;
  sales_end_at: number | null;
  form_fields: string;
  /** Charged tickets only. */
  price: number | null;
  currency: string | null;
  created_at: number;
  updated_at: number;
}

export interface EventSessionsTable {
  id: Generated<number>;
  event_id: string;
  position: number;
  title: string;
  description: string;
  start_at: number | null;
  end_at: number | null;
  video_url: string | null;
  thumbnail_path: string | null;
  /** JSON: [{speakerName, jobOrDept}]. */
  speakers: Generated<string>;
  sort_no: Generated<number>;
}

export interface EventFaqsTable {
  id: Generated<number>;
  event_id: string;
  position: number;
  question: string;
  answer: string;
  category_name: Generated<string>;
  sort_no: Generated<number>;
}

export interface EventHostsTable {
  id: Generated<number>;
  event_id: string;
  position: number;
  host_type: string;
  user_id: number | null;
  company_id: number | null;
  roles: string;
}

/** `parent`: a job industry's group (migration 025); null for the groups and every other catalog's codes. */
export interface CodeEntriesTable {
  catalog: string;
  code: string;
  position: number;
  parent: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface CodeLabelsTable {
  catalog: string;
  code: string;
  locale: string;
  display_name: string;
  description: ColumnType<string, string | undefined, string>;
}

export interface OAuthClientsTable {
  client_id: string;
  name: string;
  secret_hash: string | null;
  redirect_uris: string;
  allowed_scopes: string;
  created_at: number;
  updated_at: number;
  app_id: number | null;
  previous_secret_hash: string | null;
  previous_secret_expires_at: number | null;
  /** When it registered itself (RFC 7591); null for the console's, the operator's and metadata documents' clients. */
  registered_at: Generated<number | null>;
  /** What a client that registered itself said it is: `native` or `web`; null for every other client. */
  application_type: Generated<string | null>;
  /** The client address a self-registered client registered from; null for every other client. */
  registered_from: Generated<string | null>;
}

export interface OAuthSigningKeysTable {
  kid: string;
  algorithm: string;
  public_jwk: string;
  private_key_encrypted: string;
  created_at: number;
  retired_at: number | null;
}

/** A new key or secret waiting to be shown once (console-reveals.ts). */
export interface ConsoleRevealsTable {
  id_hash: string;
  user_id: number;
  app_id: number;
  kind: string;
  sealed: string;
  expires_at: number;
}
export interface LoginSessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}
export interface OAuthConsentsTable {
  user_id: number;
  client_id: string;
  scopes: string;
  updated_at: number;
}

export interface OAuthGrantsTable {
  id: string;
  user_id: number;
  client_id: string;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
  /** The resource its tokens are for (RFC 8707): null, the HTTP API; else the MCP endpoint's URL. */
  resource: string | null;
}

export interface OAuthAuthorizationCodesTable {
  code_hash: string;
  client_id: string;
  user_id: number;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  grant_id: string | null;
  resource: string | null;
}

export interface OAuthRefreshTokensTable {
  token_hash: string;
  grant_id: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface MediaObjectsTable {
  media_key: string;
  content_type: string;
  bytes: Buffer;
  created_at: number;
}

export interface IdempotencyKeysTable {
  scope: string;
  idempotency_key: string;
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
  response_location: string | null;
  created_at: number;
  expires_at: number;
  /** The process holding an unfinished claim (`instance/boot`), and until when; null once answered. */
  owner: string | null;
  lease_expires_at: number | null;
  /** What the claimed create made, written in the create's own transaction. */
  resource_id: string | null;
}

export interface RateLimitCountersTable {
  counter_key: string;
  count: number;
  expires_at: number;
}

/** One slot of a data version; the version is the sum of its slots (migration 008). */
export interface DataVersionSlotsTable {
  name: string;
  slot: number;
  version: number;
}

/** One public change, in commit order (src/change-feed/, docs/changes.md). */
export interface ChangeEventsTable {
  position: number;
  event_id: string;
  type: string;
  resource_type: 'post' | 'job' | 'event' | 'company' | 'profile';
  resource_id: string;
  company_handle: string | null;
  occurred_at: number;
  /** The resource as the public API shows it (JSON text); null for a deletion, and until `ready`. */
  data: string | null;
  ready: Generated<number>;
}

/** An app's webhook endpoint (src/modules/webhooks/, docs/webhooks.md). */
export interface WebhookEndpointsTable {
  id: string;
  app_id: number;
  url: string;
  /** JSON array of change types; empty: every type. */
  event_types: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  created_at: number;
  disabled_at: number | null;
  disabled_reason: string | null;
  /** The first failed attempt since the last success; null while it succeeds. */
  failing_since: number | null;
  /** The feed position up to which its deliveries are made. */
  cursor: number;
  /** The earliest pending attempt; null when none is pending. */
  due_at: number | null;
  lease_owner: string | null;
  lease_until: Generated<number>;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One change to send to one endpoint. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  position: number;
  event_id: string;
  event_type: string;
  /** `post:12`: deliveries of one resource are sent in order. */
  resource_key: string;
  /** The body of a ping or test event (its position below zero: no change of the feed); null for a change's delivery. */
  payload: string | null;
  state: DeliveryState;
  attempts: Generated<number>;
  /** Where it stands in the retry schedule since it was last (re)queued. */
  step: Generated<number>;
  next_attempt_at: number | null;
  created_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  number: number;
  attempted_at: number;
  webhook_timestamp: number;
  duration_ms: number;
  status: number | null;
  error: string | null;
  response_body: string | null;
}

/** One document a write changed, for every instance's search index to read again (search/search-changes.ts). */
export interface SearchChangesTable {
  id: Generated<number>;
  kind: 'post' | 'job' | 'event' | 'company' | 'profile';
  doc_id: number;
  created_at: number;
}

export interface DB {
  users: UsersTable;
  companies: CompaniesTable;
  company_translations: CompanyTranslationsTable;
  profiles: ProfilesTable;
  profile_reads: ProfileReadsTable;
  profile_read_days: ProfileReadDaysTable;
  company_roles: CompanyRolesTable;
  resource_roles: ResourceRolesTable;
  apps: AppsTable;
  app_keys: AppKeysTable;
  app_audit: AppAuditTable;
  app_requests: AppRequestsTable;
  account_links: AccountLinksTable;
  app_usage: AppUsageTable;
  posts: PostsTable;
  post_images: PostImagesTable;
  post_og_cards: PostOgCardsTable;
  post_mentions: PostMentionsTable;
  post_translations: PostTranslationsTable;
  jobs: JobsTable;
  job_images: JobImagesTable;
  job_settings: JobSettingsTable;
  job_translations: JobTranslationsTable;
  events: EventsTable;
  event_categories: EventCategoriesTable;
  event_subjects: EventSubjectsTable;
  event_translations: EventTranslationsTable;
  event_tickets: EventTicketsTable;
  event_sessions: EventSessionsTable;
  event_faqs: EventFaqsTable;
  event_hosts: EventHostsTable;
  event_attachments: EventAttachmentsTable;
  code_entries: CodeEntriesTable;
  code_labels: CodeLabelsTable;
  oauth_clients: OAuthClientsTable;
  oauth_signing_keys: OAuthSigningKeysTable;
  login_sessions: LoginSessionsTable;
  console_reveals: ConsoleRevealsTable;
  oauth_consents: OAuthConsentsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_authorization_codes: OAuthAuthorizationCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  media_objects: MediaObjectsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_counters: RateLimitCountersTable;
  data_version_slots: DataVersionSlotsTable;
  search_changes: SearchChangesTable;
  change_events: ChangeEventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  /** `last_position` (the feed's last handed-out position) and `pruned_below` (its oldest kept), changes/. */
  change_feed_state: { name: 'last_position' | 'pruned_below' | 'epoch'; value: number };
  /** `epoch` (this database's name for index copies) and `pruned_below` (the log's oldest kept id), search-changes.ts. */
  search_log_state: { name: 'epoch' | 'pruned_below'; value: string };
}
