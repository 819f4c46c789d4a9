import type { CheckedImage, ImageUploads } from '../../media/image-uploads.js';
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
export class EventWriteService {
  constructor(private readonly d: EventWriteDeps) {}

  async create(userId: number, companyHandle: string | undefined, input: EventCreateInput, banner: CheckedImage | undefined) {
    if (!companyHandle) throw new ApiError('C0005', 'Query parameter "companyId" is required to create an event', 'companyId');
    const startAt = this.time('startAt', input.startAt)!;
    const endAt = this.time('endAt', input.endAt)!;
    if (endAt <= startAt) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    this.checkCodes(input);
    const company = await this.d.accounts.findCompanyByHandle(companyHandle);
    if (!company) throw new ApiError('C0008', `Company ${companyHandle} does not exist`, 'companyId');
    await this.d.permissions.require(userId, company, 'ENT_EVENT_CREATE');
    const [stored] = await this.d.uploads.storeAll('events', banner ? [banner] : [], 'banner');
    const now = this.d.clock();
    const id = timeOrderedId('evt', now);
    try {
      await this.d.writes.transaction((repo) => repo.insert({
        id, company_id: company.id, author_user_id: userId, status: 'published', event_name: input.eventName,
        description: input.description ?? '', event_open_type: input.eventOpenType ?? 'OFFLINE', start_at: startAt, end_at: endAt,
        online_link: input.onlineLink ?? null, country: input.country ?? null, region: input.region ?? null, locality: input.locality ?? null,
        location_title: input.locationTitle ?? null, location_address: input.locationAddress ?? null, location_detail: input.locationDetail ?? null,
        location_description: input.locationDescription ?? null, location_hidden: input.locationHidden ? 1 : 0, guest_hidden: input.guestHidden ? 1 : 0,
        banner_key: stored?.mediaKey ?? null, language: 'ko', view_count: 0, guest_count: 0, created_at: now, updated_at: now, deleted_at: null,
      }, input.eventCategories ?? [], input.eventSubjects ?? []));
    } catch (err) {
      await this.d.uploads.discard(stored ? [stored.mediaKey] : []);
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
        ...(input.eventOpenType !== undefined && { event_open_type: input.eventOpenType }),
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

  async createTicket(userId: number, eventId: string, input: TicketInput & { ticketName: string }): Promise<{ ticketId: number }> {
    const sales = this.salesWindow(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const now = this.d.clock();
    const ticketId = await this.d.writes.transaction((repo) => repo.insertTicket({
      event_id: eventId, ticket_type: 'FREE', ticket_name: input.ticketName, description: input.description ?? '',
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
    await this.d.writes.updateTicket(eventId, ticketId, {
      ...(input.ticketName !== undefined && { ticket_name: input.ticketName }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.approvalRequired !== undefined && { approval_required: input.approvalRequired ? 1 : 0 }),
      ...(input.waitingRequired !== undefined && { waiting_required: input.waitingRequired ? 1 : 0 }),
      ...(input.maxCount !== undefined && { max_count: input.maxCount }),
      ...(input.formFields !== undefined && { form_fields: JSON.stringify(input.formFields) }),
      ...(sales.start !== undefined && { sales_start_at: sales.start }),
      ...(sales.end !== undefined && { sales_end_at: sales.end }),
      updated_at: this.d.clock(),
    });
    return { ticketId };
  }

  async createSession(userId: number, eventId: string, input: SessionInput & { title: string }): Promise<{ sessionId: number }> {
    const window = this.window(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const sessionId = await this.d.writes.transaction((repo) => repo.insertSession({
      event_id: eventId, title: input.title, description: input.description ?? '', start_at: window.start ?? null, end_at: window.end ?? null,
    }));
    return { sessionId };
  }

  async updateSession(userId: number, eventId: string, sessionId: number, input: SessionInput): Promise<{ sessionId: number }> {
    const window = this.window(input);
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const updated = await this.d.writes.updateSession(eventId, sessionId, {
      ...(input.title !== undefined && { title: input.title }),
      ...(input.description !== undefined && { description: input.description }),
      ...(window.start !== undefined && { start_at: window.start }),
      ...(window.end !== undefined && { end_at: window.end }),
    });
    if (!updated) throw subNotFound('session', sessionId, eventId);
    return { sessionId };
  }

  async createFaq(userId: number, eventId: string, input: Required<FaqInput>): Promise<{ faqId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    return { faqId: await this.d.writes.transaction((repo) => repo.insertFaq({ event_id: eventId, question: input.question, answer: input.answer })) };
  }

  async updateFaq(userId: number, eventId: string, faqId: number, input: FaqInput): Promise<{ faqId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    if (!(await this.d.writes.updateFaq(eventId, faqId, input))) throw subNotFound('faq', faqId, eventId);
    return { faqId };
  }

  async createHost(userId: number, eventId: string, input: HostInput): Promise<{ hostId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    let userRef: number | null = null;
    let companyRef: number | null = null;
    if (input.hostType === 'COMPANY') {
      companyRef = (await this.d.accounts.companyIdByHandle(input.id)) ?? null;
      if (companyRef === null) throw new ApiError('C0008', `Company ${input.id} does not exist`, 'request.id');
    } else {
      userRef = (await this.d.accounts.userIdByHandle(input.id)) ?? null;
      if (userRef === null) throw new ApiError('C0008', `Member ${input.id} does not exist`, 'request.id');
    }
    const hostId = await this.d.writes.transaction((repo) => repo.insertHost({
      event_id: eventId, host_type: input.hostType, user_id: userRef, company_id: companyRef, roles: JSON.stringify(input.roles),
    }));
    return { hostId };
  }

  async updateHost(userId: number, eventId: string, hostId: number, roles: string[]): Promise<{ hostId: number }> {
    await this.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    if (!(await this.d.writes.updateHost(eventId, hostId, roles))) throw subNotFound('host', hostId, eventId);
    return { hostId };
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
