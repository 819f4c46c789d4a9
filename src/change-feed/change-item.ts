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
  resource: {
    type: 'post' | 'job' | 'event' | 'company' | 'profile';
    id: string;
    webUrl: string;
    companyId: string | null;
  };
  data: unknown;
}

export function changeItem(row: ChangeRow, links: Links): ChangeItem {
  // A company is known to clients by its handle (the row keeps its number, as the company of any change).
  const id = row.resource_type === 'company' ? (row.company_handle ?? row.resource_id) : row.resource_id;
  const webUrl =
    row.resource_type === 'post'
      ? links.post(Number(id))
      : row.resource_type === 'job'
        ? links.job(Number(id))
        : row.resource_type === 'company'
          ? links.company(id)
          : row.resource_type === 'profile'
            ? links.profile(id)
            : links.event(id);
  return {
    id: row.event_id,
    type: row.type,
    occurredAt: new Date(row.occurred_at).toISOString(),
    resource: { type: row.resource_type, id, webUrl, companyId: row.company_handle },
    data: storedData(row.resource_type, row.data),
  };
}
