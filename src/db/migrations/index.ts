import type { Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';
import { initialSchema } from './2026-11-21-001-initial-schema.js';
import { seedCodeCatalogs } from './2026-11-21-002-code-catalogs.js';
import { oauthSchema } from './2026-11-21-003-oauth.js';
import { writesSchema } from './2026-11-21-004-writes.js';
import { rateLimitCounters } from './2026-11-21-005-rate-limit-counters.js';
import { searchCacheVersions } from './2026-11-21-006-search-cache-versions.js';
import { jobFilterIndex } from './2026-11-21-007-job-filter-index.js';
import { dataVersionSlots } from './2026-11-21-008-data-version-slots.js';
import { boundedSearchIndex } from './2026-11-22-009-bounded-search-index.js';
import { jobPopularityIndex } from './2026-11-22-010-job-popularity-index.js';
import { idempotencyClaims } from './2026-11-23-011-idempotency-claims.js';
import { mediaKeyIndexes } from './2026-11-23-012-media-key-indexes.js';
import { jobSettingTypes } from './2026-11-23-013-job-setting-types.js';
import { appCredentialsLifecycle } from './2026-11-23-015-app-credentials-lifecycle.js';
import { eventReferenceShape } from './2026-11-23-014-event-reference-shape.js';
import { postSearchIndex } from './2026-11-24-016-post-search-index.js';
import { jobSearchIndex } from './2026-11-24-017-job-search-index.js';
import { consoleReveals } from './2026-11-24-018-console-reveals.js';
import { realServiceCodes } from './2026-11-25-019-real-service-codes.js';
import { changeEvents } from './2026-11-25-021-change-events.js';
import { webhooks } from './2026-11-25-022-webhooks.js';
import { appWebOrigins } from './2026-11-25-020-app-web-origins.js';
import { postImagesCoveringIndex } from './2026-11-27-023-post-images-covering-index.js';
import { jobCodesInRow } from './2026-11-27-024-job-codes-in-row.js';
import { catalogGroupsAndDescriptions } from './2026-11-28-025-catalog-groups-and-descriptions.js';
import { changeEventsByResource } from './2026-11-28-026-change-events-by-resource.js';
import { webhookTestDeliveries } from './2026-11-28-027-webhook-test-deliveries.js';
import { userDisabled } from './2026-11-28-028-user-disabled.js';
import { appRequestLog } from './2026-11-29-029-app-request-log.js';
import { accountLinks } from './2026-11-29-030-account-links.js';
import { tokenResource } from './2026-11-29-031-token-resource.js';
import { dynamicClients } from './2026-12-01-032-dynamic-clients.js';
import { clientRegisteredFrom } from './2026-12-01-033-client-registered-from.js';
import { companyDirectory } from './2026-12-07-036-company-directory.js';
import { memberProfiles } from './2026-12-07-037-member-profiles.js';
import { eventSearchIndex } from './2026-12-07-035-event-search-index.js';
import { jobLocationAndSalary } from './2026-12-02-034-job-location-and-salary.js';

/**
 * Every migration, by name; names sort in the order they run. Never edit one that has landed, with one
 * exception: work a later migration undoes may be taken out (the engines' full-text tables, which 009 and 010
 * filled and 016 and 017 drop), so that no code
 * outlives what it served. A migration imports no live code: its constants are its own, its data a frozen dated
 * copy (shared/catalogs-2026-11-28.ts), and the moment of migrating is given to it (`clock`).
 */
export function allMigrations(adapter: DialectAdapter, clock: () => number = Date.now): Record<string, Migration> {
  return {
    '2026-11-21-001-initial-schema': initialSchema(adapter),
    '2026-11-21-002-code-catalogs': seedCodeCatalogs(),
    '2026-11-21-003-oauth': oauthSchema(),
    '2026-11-21-004-writes': writesSchema(adapter),
    '2026-11-21-005-rate-limit-counters': rateLimitCounters(),
    '2026-11-21-006-search-cache-versions': searchCacheVersions(),
    '2026-11-21-007-job-filter-index': jobFilterIndex(),
    '2026-11-21-008-data-version-slots': dataVersionSlots(),
    '2026-11-22-009-bounded-search-index': boundedSearchIndex(),
    '2026-11-22-010-job-popularity-index': jobPopularityIndex(),
    '2026-11-23-011-idempotency-claims': idempotencyClaims(),
    '2026-11-23-012-media-key-indexes': mediaKeyIndexes(),
    '2026-11-23-013-job-setting-types': jobSettingTypes(),
    '2026-11-23-014-event-reference-shape': eventReferenceShape(),
    '2026-11-23-015-app-credentials-lifecycle': appCredentialsLifecycle(adapter),
    '2026-11-24-016-post-search-index': postSearchIndex(adapter),
    '2026-11-24-017-job-search-index': jobSearchIndex(),
    '2026-11-24-018-console-reveals': consoleReveals(),
    '2026-11-25-019-real-service-codes': realServiceCodes(),
    '2026-11-25-020-app-web-origins': appWebOrigins(),
    '2026-11-25-021-change-events': changeEvents(clock),
    '2026-11-25-022-webhooks': webhooks(),
    '2026-11-27-023-post-images-covering-index': postImagesCoveringIndex(adapter),
    '2026-11-27-024-job-codes-in-row': jobCodesInRow(adapter),
    '2026-11-28-025-catalog-groups-and-descriptions': catalogGroupsAndDescriptions(),
    '2026-11-28-026-change-events-by-resource': changeEventsByResource(),
    '2026-11-28-027-webhook-test-deliveries': webhookTestDeliveries(),
    '2026-11-28-028-user-disabled': userDisabled(),
    '2026-11-29-029-app-request-log': appRequestLog(adapter),
    '2026-11-29-030-account-links': accountLinks(),
    '2026-11-29-031-token-resource': tokenResource(),
    '2026-12-01-032-dynamic-clients': dynamicClients(),
    '2026-12-01-033-client-registered-from': clientRegisteredFrom(),
    '2026-12-02-034-job-location-and-salary': jobLocationAndSalary(),
    '2026-12-07-035-event-search-index': eventSearchIndex(adapter),
    '2026-12-07-036-company-directory': companyDirectory(adapter),
    '2026-12-07-037-member-profiles': memberProfiles(),
  };
}
