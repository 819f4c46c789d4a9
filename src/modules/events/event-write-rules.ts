import { ApiError, notFound } from '../../shared/api-error.js';
import { parseDateTime } from '../../shared/time.js';
import type { Capability } from '../accounts/roles.js';
import type { EventWriteDeps } from './event-write-deps.js';

export const subNotFound = (kind: string, id: number, eventId: string) =>
  new ApiError('C0008', `Event ${eventId} has no ${kind} ${id}`, `${kind}Id`);

/** The changes of a PATCH, refused when there are none (every field sent was one the operation does not take). */
export function nonEmpty<T extends object>(changes: T): T {
  if (Object.keys(changes).length === 0) throw new ApiError('C0002', 'Send at least one field to change', 'request');
  return changes;
}

/** What event writes and the writes of their parts share: who may write, times in requests, hosts by handle. */
export class EventWriteRules {
  constructor(private readonly d: Pick<EventWriteDeps, 'writes' | 'permissions' | 'accounts' | 'timeZone'>) {}

  async authorize(userId: number, eventId: string, capability: Capability) {
    const event = await this.d.writes.find(eventId);
    if (!event || event.status === 'deleted') throw notFound.event(eventId);
    await this.d.permissions.require(userId, { id: event.company_id, handle: event.company_handle }, capability, {
      type: 'EVENT',
      id: eventId,
    });
    return event;
  }

  /** Hosts named by handle, as rows: the company or member must exist; roles default to ORGANIZER. */
  async resolveHosts(
    hosts: Array<{ hostType: 'COMPANY' | 'MEMBER'; hostId?: string; roleTypes?: string[] }>,
    field: string,
  ) {
    const rows = [];
    for (const [i, host] of hosts.entries()) {
      const at = `${field}${field === 'request' ? '' : `.${i}`}`;
      if (!host.hostId) throw new ApiError('C0002', `Field "${at}.hostId" is required`, `${at}.hostId`);
      const ref =
        host.hostType === 'COMPANY'
          ? await this.d.accounts.companyIdByHandle(host.hostId)
          : await this.d.accounts.userIdByHandle(host.hostId);
      if (ref === undefined)
        throw new ApiError(
          'C0008',
          `${host.hostType === 'COMPANY' ? 'Company' : 'Member'} ${host.hostId} does not exist`,
          `${at}.hostId`,
        );
      rows.push({
        host_type: host.hostType,
        user_id: host.hostType === 'MEMBER' ? ref : null,
        company_id: host.hostType === 'COMPANY' ? ref : null,
        roles: JSON.stringify(host.roleTypes?.length ? host.roleTypes : ['ORGANIZER']),
      });
    }
    return rows;
  }

  /** undefined: not sent; null: cleared; otherwise epoch ms. */
  time(field: string, value: string | null | undefined): number | undefined {
    if (value === undefined || value === null) return undefined;
    const ms = parseDateTime(value, this.d.timeZone);
    if (ms === null)
      throw new ApiError(
        'C0002',
        `Field "request.${field}" must be an ISO 8601 date-time, got ${JSON.stringify(value)}`,
        `request.${field}`,
      );
    return ms;
  }

  window(input: { startAt?: string | null; endAt?: string | null }) {
    const start = input.startAt === null ? null : this.time('startAt', input.startAt);
    const end = input.endAt === null ? null : this.time('endAt', input.endAt);
    if (typeof start === 'number' && typeof end === 'number' && end <= start)
      throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    return { start, end };
  }
}
