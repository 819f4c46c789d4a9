/**
 * A recorded change as clients receive it: an item of the feed (GET /api/v1/changes) and the body of a webhook
 * delivery are the same object, so one parser serves both.
 */
import type { Links } from '../shared/links.js';
import type { ChangeRow } from './change-feed.js';
import { storedData } from './stored-data.js';

export interface ChangeItem {
  id: string;
  type: string;
  occurredAt: string;
  resource: { type: 'post' | 'job' | 'event'; id: string; webUrl: string; companyId: string | null };
  data: unknown;
}

export function changeItem(row: ChangeRow, links: Links): ChangeItem {
  const webUrl =
    row.resource_type === 'post'
      ? links.post(Number(row.resource_id))
      : row.resource_type === 'job'
        ? links.job(Number(row.resource_id))
        : links.event(row.resource_id);
  return {
    id: row.event_id,
    type: row.type,
    occurredAt: new Date(row.occurred_at).toISOString(),
    resource: { type: row.resource_type, id: row.resource_id, webUrl, companyId: row.company_handle },
    data: storedData(row.resource_type, row.data),
  };
}
