import type { CheckedImage, ImageUploads, StoredImage } from '../../media/image-uploads.js';
import { ApiError, notFound } from '../../shared/api-error.js';
import { timeOrderedId } from '../../shared/ids.js';
import type { Links } from '../../shared/links.js';
import { parseDateTime } from '../../shared/time.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { PermissionService } from '../accounts/permission-service.js';
import type { Capability } from '../accounts/roles.js';
import type { CatalogName } from '../codes/catalog-data.js';
import type { CodeService } from '../codes/code-service.js';
import type { EventWriteRepository } from './event-write-repository.js';
import type { EventCreateInput, EventUpdateInput, FaqInput, HostInput, SessionInput, TicketInput } from './event-write-schemas.js';

export interface EventWriteDeps {
  writes: EventWriteRepository;
  accounts: AccountsRepository;
  permissions: PermissionService;
  codes: CodeService;
  uploads: ImageUploads;
  links: Links;
  clock: () => number;
  timeZone: string;
}

const subNotFound = (kind: string, id: number, eventId: string) => new ApiError('C0008', `Event ${eventId} has no ${kind} ${id}`, `${kind}Id`);

/** Events of a company and their tickets, sessions, FAQs and hosts (scope event:write). */
/** The changes of a PATCH, refused when there are none (every field sent was one the operation does not take). */
function nonEmpty<T extends object>(changes: T): T {
  if (Object.keys(changes).length === 0) throw new ApiError('C0002', 'Send at least one field to change', 'request');
  return changes;
}

/** HYBRID, the name this service used first, is the reference's ON_OFFLINE. */
const openType = (value: string | undefined) => (value === 'HYBRID' ? 'ON_OFFLINE' : value);

export class EventWriteService {
  constructor(private readonly d: EventWriteDeps) {}

  async create(userId: number, companyHandle: string | undefined, input: EventCreateInput, banner: CheckedImage | undefined, attachments: CheckedImage[] = []) {
    if (!companyHandle) throw new ApiError('C0005', 'Query parameter "companyId" is required to create an event', 'companyId');
    const startAt = this.time('startAt', input.startAt)!;
    const endAt = this.time('endAt', input.endAt)!;
    if (endAt <= startAt) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    this.checkCodes(input);
    const company = await this.d.accounts.findCompanyByHandle(companyHandle);
    if (!company) throw new ApiError('C0008', `Company ${companyHandle} does not exist`, 'companyId');
    await this.d.permissions.require(userId, company, 'ENT_EVENT_CREATE');
    const hosts = await this.resolveHosts(input.hosts ?? [], 'request.hosts');
    const [stored] = await this.d.uploads.storeAll('events', banner ? [banner] : [], 'banner');
    let attached: StoredImage[];
    try {
      attached = await this.d.uploads.storeAll('events', attachments, 'attachments');
    } catch (err) {
      await this.d.uploads.discard(stored ? [stored.mediaKey] : []);
      throw err;
    }
    const files = attached.map((a, i) => ({ mediaKey: a.mediaKey, fileName: attachments[i]!.filename || null }));
    const now = this.d.clock();
    const id = timeOrderedId('evt', now);
    try {
      await this.d.writes.transaction((repo) => repo.insert({
        id, company_id: company.id, author_user_id: userId, status: 'published', event_name: input.eventName,
        description: input.description ?? '', event_open_type: openType(input.eventOpenType) ?? 'OFFLINE', start_at: startAt, end_at: endAt,
        access_type: input.accessType ?? 'PUBLIC', join_type: input.joinType ?? 'OPEN', latitude: input.latitude ?? null, longitude: input.longitude ?? null,
        online_link: input.onlineLink ?? null, country: input.country ?? null, region: input.region ?? null, locality: input.locality ?? null,
        location_title: input.locationTitle ?? null, location_address: input.locationAddress ?? null, location_detail: input.locationDetail ?? null,
        location_description: input.locationDescription ?? null, location_hidden: input.locationHidden ? 1 : 0, guest_hidden: input.guestHidden ? 1 : 0,
        banner_key: stored?.mediaKey ?? null, language: 'ko', view_count: 0, guest_count: 0, created_at: now, updated_at: now, deleted_at: null,
      }, input.eventCategories ?? [], input.eventSubjects ?? [], hosts, files));
    } catch (err) {
      await this.d.uploads.discard([...(stored ? [stored.mediaKey] : []), ...files.map((f) => f.mediaKey)]);
      throw err;
    }
    return this.created(id);
  }

  /** The answer to an event create, for the event `eventId` (also for a retry whose first request crashed). */
  created(eventId: string): { eventId: string; webUrl: string } {
    return { eventId, webUrl: this.d.links.event(eventId) };
  }

  async update(userId: number, eventId: string, input: EventUpdateInput, banner: CheckedImage | undefined) {
    this.checkCodes(input);
    const event = await this.authorize(userId, eventId, 'ENT_EVENT_UPDATE');
    const startAt = this.time('startAt', input.startAt) ?? event.start_at;
    const endAt = this.time('endAt', input.endAt) ?? event.end_at;
    if (endAt <= startAt) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    const [stored] = await this.d.uploads.storeAll('events', banner ? [banner] : [], 'banner');
    try {
      await this.d.writes.transaction((repo) => repo.update(eventId, {
        ...(input.eventName !== undefined && { event_name: input.eventName }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.eventOpenType !== undefined && { event_open_type: openType(input.eventOpenType) }),
        ...(input.accessType !== undefined && { access_type: input.accessType }),
        ...(input.joinType !== undefined && { join_type: input.joinType }),
        ...(input.latitude !== undefined && { latitude: input.latitude }),
        ...(input.longitude !== undefined && { longitude: input.longitude }),
        ...(input.onlineLink !== undefined && { online_link: input.onlineLink }),
        ...(input.country !== undefined && { country: input.country }),
        ...(input.region !== undefined && { region: input.region }),
        ...(input.locality !== undefined && { locality: input.locality }),
        ...(input.locationTitle !== undefined && { location_title: input.locationTitle }),
        ...(input.locationAddress !== undefined && { location_address: input.locationAddress }),
        ...(input.locationDetail !== undefined && { location_detail: input.locationDetail }),
        ...(input.locationDescription !== undefined && { location_description: input.locationDescription }),
        ...(input.locationHidden !== undefined && { location_hidden: input.locationHidden ? 1 : 0 }),
        ...(input.guestHidden !== undefined && { guest_hidden: input.guestHidden ? 1 : 0 }),
        ...(stored && { banner_key: stored.mediaKey }),
        start_at: startAt, end_at: endAt, updated_at: this.d.clock(),
      }, input.eventCategories, input.eventSubjects));
    } catch (err) {
      await this.d.uploads.discard(stored ? [stored.mediaKey] : []);
      throw err;
    }
    if (stored && event.banner_key) await this.d.uploads.discard([event.banner_key]);
    return { eventId, webUrl: this.d.links.event(eventId) };
  }

  async remove(userId: number, eventId: string): Promise<void> {
    await this.authorize(userId, eventId, 'ENT_EVENT_DELETE');
    const now = this.d.clock();
    await this.d.writes.transaction(async (repo) => {
      const { tickets, guests } = await repo.attendance(eventId);
      if (tickets > 0 || guests > 0) {
        throw new ApiError('EV022', `Event ${eventId} has ${tickets} ticket(s) and ${guests} guest(s); delete its tickets first, and an event with guests cannot be deleted`, 'eventId');
      }
      await repo.update(eventId, { status: 'deleted', deleted_at: now, updated_at: now });
    });
  }

  async createTicket(userId: number, eventId: string, input: TicketInput & { ticketName: string }, type: 'FREE' | 'CHARGED'): Promise<{ ticketId: number }> {
    const sales = this.salesWindow(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const now = this.d.clock();
    const ticketId = await this.d.writes.transaction((repo) => repo.insertTicket({
      event_id: eventId, ticket_type: type, ticket_name: input.ticketName, description: input.description ?? '',
      price: type === 'CHARGED' ? input.price ?? 0 : null, currency: type === 'CHARGED' ? input.currency ?? 'KRW' : null,
      approval_required: input.approvalRequired ? 1 : 0, waiting_required: input.waitingRequired ? 1 : 0, max_count: input.maxCount ?? null,
      sales_start_at: sales.start ?? null, sales_end_at: sales.end ?? null, form_fields: JSON.stringify(input.formFields ?? []),
      created_at: now, updated_at: now,
    }));
    return { ticketId };
  }

  async updateTicket(userId: number, eventId: string, ticketId: number, input: TicketInput): Promise<{ ticketId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const current = await this.d.writes.findTicket(eventId, ticketId);
    if (!current) throw subNotFound('ticket', ticketId, eventId);
    const sales = this.salesWindow(input, current);
    const type = input.ticketType ?? current.ticket_type;
    const price = input.price !== undefined ? input.price : current.price;
    if (type === 'CHARGED' && price === null) throw new ApiError('C0002', 'Field "request.price" is required for a CHARGED ticket', 'request.price');
    await this.d.writes.updateTicket(eventId, ticketId, {
      ...(input.ticketName !== undefined && { ticket_name: input.ticketName }),
      ...(input.description !== undefined && { description: input.description ?? '' }),
      ...(input.approvalRequired !== undefined && { approval_required: input.approvalRequired ? 1 : 0 }),
      ...(input.waitingRequired !== undefined && { waiting_required: input.waitingRequired ? 1 : 0 }),
      ...(input.maxCount !== undefined && { max_count: input.maxCount }),
      ...(input.formFields !== undefined && { form_fields: JSON.stringify(input.formFields) }),
      ...(sales.start !== undefined && { sales_start_at: sales.start }),
      ...(sales.end !== undefined && { sales_end_at: sales.end }),
      ticket_type: type,
      price: type === 'CHARGED' ? price : null,
      currency: type === 'CHARGED' ? (input.currency !== undefined ? input.currency : current.currency) ?? 'KRW' : null,
      updated_at: this.d.clock(),
    });
    return { ticketId };
  }

  async createSession(userId: number, eventId: string, input: SessionInput): Promise<{ sessionId: number }> {
    const name = input.sessionName ?? input.title;
    if (!name) throw new ApiError('C0002', 'Field "request.sessionName" is required', 'request.sessionName');
    const window = this.sessionWindow(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const sessionId = await this.d.writes.transaction((repo) => repo.insertSession({
      event_id: eventId, title: name, description: input.description ?? '', start_at: window.start ?? null, end_at: window.end ?? null,
      video_url: input.videoUrl ?? null, thumbnail_path: input.thumbnailPath ?? null, speakers: JSON.stringify(input.speakers ?? []), sort_no: input.sortNo ?? 0,
    }));
    return { sessionId };
  }

  async updateSession(userId: number, eventId: string, sessionId: number, input: SessionInput): Promise<{ sessionId: number }> {
    const window = this.sessionWindow(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const name = input.sessionName ?? input.title;
    const updated = await this.d.writes.updateSession(eventId, sessionId, nonEmpty({
      ...(name !== undefined && { title: name }),
      ...(input.description !== undefined && { description: input.description ?? '' }),
      ...(window.start !== undefined && { start_at: window.start }),
      ...(window.end !== undefined && { end_at: window.end }),
      ...(input.videoUrl !== undefined && { video_url: input.videoUrl }),
      ...(input.thumbnailPath !== undefined && { thumbnail_path: input.thumbnailPath }),
      ...(input.speakers !== undefined && { speakers: JSON.stringify(input.speakers) }),
      ...(input.sortNo !== undefined && { sort_no: input.sortNo }),
    }));
    if (!updated) throw subNotFound('session', sessionId, eventId);
    return { sessionId };
  }

  async createFaq(userId: number, eventId: string, input: FaqInput): Promise<{ faqId: number }> {
    const title = input.title ?? input.question;
    const content = input.content ?? input.answer;
    if (!title) throw new ApiError('C0002', 'Field "request.title" is required', 'request.title');
    if (!content) throw new ApiError('C0002', 'Field "request.content" is required', 'request.content');
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    return {
      faqId: await this.d.writes.transaction((repo) => repo.insertFaq({
        event_id: eventId, question: title, answer: content, category_name: input.categoryName ?? 'FAQ', sort_no: input.sortNo ?? 0,
      })),
    };
  }

  async updateFaq(userId: number, eventId: string, faqId: number, input: FaqInput): Promise<{ faqId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const title = input.title ?? input.question;
    const content = input.content ?? input.answer;
    const changed = await this.d.writes.updateFaq(eventId, faqId, nonEmpty({
      ...(title !== undefined && { question: title }),
      ...(content !== undefined && { answer: content }),
      ...(input.categoryName !== undefined && { category_name: input.categoryName }),
      ...(input.sortNo !== undefined && { sort_no: input.sortNo }),
    }));
    if (!changed) throw subNotFound('faq', faqId, eventId);
    return { faqId };
  }

  async createHost(userId: number, eventId: string, input: HostInput): Promise<{ hostId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const [host] = await this.resolveHosts([{ hostType: input.hostType, hostId: input.hostId ?? input.id, roleTypes: input.roles ?? (input.role ? [input.role] : undefined) }], 'request');
    const hostId = await this.d.writes.transaction((repo) => repo.insertHost({ event_id: eventId, ...host! }));
    return { hostId };
  }

  async updateHost(userId: number, eventId: string, hostId: number, input: { role?: string; roles?: string[] }): Promise<{ hostId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const roles = input.roles ?? (input.role ? [input.role] : []);
    if (roles.length === 0) throw new ApiError('C0002', 'Send "role" or "roles"', 'request.role');
    if (!(await this.d.writes.updateHost(eventId, hostId, roles))) throw subNotFound('host', hostId, eventId);
    return { hostId };
  }

  /** Hosts named by handle, as rows: the company or member must exist; roles default to ORGANIZER. */
  private async resolveHosts(hosts: Array<{ hostType: 'COMPANY' | 'MEMBER'; hostId?: string; roleTypes?: string[] }>, field: string) {
    const rows = [];
    for (const [i, host] of hosts.entries()) {
      const at = `${field}${field === 'request' ? '' : `.${i}`}`;
      if (!host.hostId) throw new ApiError('C0002', `Field "${at}.hostId" is required`, `${at}.hostId`);
      const ref = host.hostType === 'COMPANY' ? await this.d.accounts.companyIdByHandle(host.hostId) : await this.d.accounts.userIdByHandle(host.hostId);
      if (ref === undefined) throw new ApiError('C0008', `${host.hostType === 'COMPANY' ? 'Company' : 'Member'} ${host.hostId} does not exist`, `${at}.hostId`);
      rows.push({
        host_type: host.hostType, user_id: host.hostType === 'MEMBER' ? ref : null, company_id: host.hostType === 'COMPANY' ? ref : null,
        roles: JSON.stringify(host.roleTypes?.length ? host.roleTypes : ['ORGANIZER']),
      });
    }
    return rows;
  }

  async deleteSub(userId: number, eventId: string, kind: 'ticket' | 'session' | 'faq' | 'host', id: number): Promise<void> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const table = ({ ticket: 'event_tickets', session: 'event_sessions', faq: 'event_faqs', host: 'event_hosts' } as const)[kind];
    if (!(await this.d.writes.deleteSub(table, eventId, id))) throw subNotFound(kind, id, eventId);
  }

  private async authorize(userId: number, eventId: string, capability: Capability) {
    const event = await this.d.writes.find(eventId);
    if (!event || event.status === 'deleted') throw notFound.event(eventId);
    await this.d.permissions.require(userId, { id: event.company_id, handle: event.company_handle }, capability, { type: 'EVENT', id: eventId });
    return event;
  }

  private checkCodes(input: EventUpdateInput): void {
    const check = (field: string, catalog: CatalogName, values: string[] | undefined) => {
      for (const value of values ?? []) {
        if (!this.d.codes.has(catalog, value)) {
          throw new ApiError('C0002', `Field "request.${field}" must hold codes of the ${catalog} catalog, got ${JSON.stringify(value)}`, `request.${field}`);
        }
      }
    };
    check('eventCategories', 'event-categories', input.eventCategories);
    check('eventSubjects', 'event-subjects', input.eventSubjects);
  }

  /** undefined: not sent; null: cleared; otherwise epoch ms. */
  private time(field: string, value: string | null | undefined): number | undefined {
    if (value === undefined || value === null) return undefined;
    const ms = parseDateTime(value, this.d.timeZone);
    if (ms === null) throw new ApiError('C0002', `Field "request.${field}" must be an ISO 8601 date-time, got ${JSON.stringify(value)}`, `request.${field}`);
    return ms;
  }

  /** A session's times: day with startTime and endTime (the reference), or startAt and endAt. */
  private sessionWindow(input: SessionInput) {
    if (input.day === undefined) return this.window(input);
    if (!input.startTime || !input.endTime) throw new ApiError('C0002', 'Fields "request.startTime" and "request.endTime" go with "request.day"', 'request.startTime');
    return this.window({ startAt: `${input.day}T${input.startTime}`, endAt: `${input.day}T${input.endTime}` });
  }

  private window(input: { startAt?: string | null; endAt?: string | null }) {
    const start = input.startAt === null ? null : this.time('startAt', input.startAt);
    const end = input.endAt === null ? null : this.time('endAt', input.endAt);
    if (typeof start === 'number' && typeof end === 'number' && end <= start) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    return { start, end };
  }

  private salesWindow(input: TicketInput, current?: { sales_start_at: number | null; sales_end_at: number | null }) {
    const start = input.salesStartAt === null ? null : this.time('salesStartAt', input.salesStartAt);
    const end = input.salesEndAt === null ? null : this.time('salesEndAt', input.salesEndAt);
    const effectiveStart = start === undefined ? current?.sales_start_at ?? null : start;
    const effectiveEnd = end === undefined ? current?.sales_end_at ?? null : end;
    if (effectiveStart !== null && effectiveEnd !== null && effectiveEnd <= effectiveStart) {
      throw new ApiError('C0002', 'Field "request.salesEndAt" must be after salesStartAt', 'request.salesEndAt');
    }
    return { start, end };
  }
}
