import { ApiError } from '../../shared/api-error.js';
import type { EventWriteDeps } from './event-write-deps.js';
import { nonEmpty, subNotFound, type EventWriteRules } from './event-write-rules.js';
import type { FaqInput, HostInput, SessionInput, TicketInput } from './event-write-schemas.js';

/** The tickets, sessions, FAQs and hosts of an event (scope event:write, capability ENT_EVENT_SUB_MANAGE). */
export class EventSubService {
  constructor(
    private readonly d: Pick<EventWriteDeps, 'writes' | 'clock'>,
    private readonly rules: EventWriteRules,
  ) {}

  async createTicket(
    userId: number,
    eventId: string,
    input: TicketInput & { ticketName: string },
    type: 'FREE' | 'CHARGED',
  ): Promise<{ ticketId: number }> {
    const sales = this.salesWindow(input);
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const now = this.d.clock();
    const ticketId = await this.d.writes.transaction((repo) =>
      repo.insertTicket({
        event_id: eventId,
        ticket_type: type,
        ticket_name: input.ticketName,
        description: input.description ?? '',
        price: type === 'CHARGED' ? (input.price ?? 0) : null,
        currency: type === 'CHARGED' ? (input.currency ?? 'KRW') : null,
        approval_required: input.approvalRequired ? 1 : 0,
        waiting_required: input.waitingRequired ? 1 : 0,
        max_count: input.maxCount ?? null,
        sales_start_at: sales.start ?? null,
        sales_end_at: sales.end ?? null,
        form_fields: JSON.stringify(input.formFields ?? []),
        created_at: now,
        updated_at: now,
      }),
    );
    return { ticketId };
  }

  async updateTicket(
    userId: number,
    eventId: string,
    ticketId: number,
    input: TicketInput,
  ): Promise<{ ticketId: number }> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const current = await this.d.writes.findTicket(eventId, ticketId);
    if (!current) throw subNotFound('ticket', ticketId, eventId);
    const sales = this.salesWindow(input, current);
    const type = input.ticketType ?? current.ticket_type;
    const price = input.price !== undefined ? input.price : current.price;
    if (type === 'CHARGED' && price === null)
      throw new ApiError('C0002', 'Field "request.price" is required for a CHARGED ticket', 'request.price');
    await this.d.writes.transaction((repo) =>
      repo.updateTicket(eventId, ticketId, {
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
        currency:
          type === 'CHARGED' ? ((input.currency !== undefined ? input.currency : current.currency) ?? 'KRW') : null,
        updated_at: this.d.clock(),
      }),
    );
    return { ticketId };
  }

  async createSession(userId: number, eventId: string, input: SessionInput): Promise<{ sessionId: number }> {
    const name = input.sessionName ?? input.title;
    if (!name) throw new ApiError('C0002', 'Field "request.sessionName" is required', 'request.sessionName');
    const window = this.sessionWindow(input);
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const sessionId = await this.d.writes.transaction((repo) =>
      repo.insertSession({
        event_id: eventId,
        title: name,
        description: input.description ?? '',
        start_at: window.start ?? null,
        end_at: window.end ?? null,
        video_url: input.videoUrl ?? null,
        thumbnail_path: input.thumbnailPath ?? null,
        speakers: JSON.stringify(input.speakers ?? []),
        sort_no: input.sortNo ?? 0,
      }),
    );
    return { sessionId };
  }

  async updateSession(
    userId: number,
    eventId: string,
    sessionId: number,
    input: SessionInput,
  ): Promise<{ sessionId: number }> {
    const window = this.sessionWindow(input);
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const name = input.sessionName ?? input.title;
    const updated = await this.d.writes.transaction((repo) =>
      repo.updateSession(
        eventId,
        sessionId,
        nonEmpty({
          ...(name !== undefined && { title: name }),
          ...(input.description !== undefined && { description: input.description ?? '' }),
          ...(window.start !== undefined && { start_at: window.start }),
          ...(window.end !== undefined && { end_at: window.end }),
          ...(input.videoUrl !== undefined && { video_url: input.videoUrl }),
          ...(input.thumbnailPath !== undefined && { thumbnail_path: input.thumbnailPath }),
          ...(input.speakers !== undefined && { speakers: JSON.stringify(input.speakers) }),
          ...(input.sortNo !== undefined && { sort_no: input.sortNo }),
        }),
      ),
    );
    if (!updated) throw subNotFound('session', sessionId, eventId);
    return { sessionId };
  }

  async createFaq(userId: number, eventId: string, input: FaqInput): Promise<{ faqId: number }> {
    const title = input.title ?? input.question;
    const content = input.content ?? input.answer;
    if (!title) throw new ApiError('C0002', 'Field "request.title" is required', 'request.title');
    if (!content) throw new ApiError('C0002', 'Field "request.content" is required', 'request.content');
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    return {
      faqId: await this.d.writes.transaction((repo) =>
        repo.insertFaq({
          event_id: eventId,
          question: title,
          answer: content,
          category_name: input.categoryName ?? 'FAQ',
          sort_no: input.sortNo ?? 0,
        }),
      ),
    };
  }

  async updateFaq(userId: number, eventId: string, faqId: number, input: FaqInput): Promise<{ faqId: number }> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const title = input.title ?? input.question;
    const content = input.content ?? input.answer;
    const changed = await this.d.writes.transaction((repo) =>
      repo.updateFaq(
        eventId,
        faqId,
        nonEmpty({
          ...(title !== undefined && { question: title }),
          ...(content !== undefined && { answer: content }),
          ...(input.categoryName !== undefined && { category_name: input.categoryName }),
          ...(input.sortNo !== undefined && { sort_no: input.sortNo }),
        }),
      ),
    );
    if (!changed) throw subNotFound('faq', faqId, eventId);
    return { faqId };
  }

  async createHost(userId: number, eventId: string, input: HostInput): Promise<{ hostId: number }> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const [host] = await this.rules.resolveHosts(
      [
        {
          hostType: input.hostType,
          hostId: input.hostId ?? input.id,
          roleTypes: input.roles ?? (input.role ? [input.role] : undefined),
        },
      ],
      'request',
    );
    const hostId = await this.d.writes.transaction((repo) => repo.insertHost({ event_id: eventId, ...host! }));
    return { hostId };
  }

  async updateHost(
    userId: number,
    eventId: string,
    hostId: number,
    input: { role?: string; roles?: string[] },
  ): Promise<{ hostId: number }> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const roles = input.roles ?? (input.role ? [input.role] : []);
    if (roles.length === 0) throw new ApiError('C0002', 'Send "role" or "roles"', 'request.role');
    if (!(await this.d.writes.transaction((repo) => repo.updateHost(eventId, hostId, roles))))
      throw subNotFound('host', hostId, eventId);
    return { hostId };
  }

  async deleteSub(
    userId: number,
    eventId: string,
    kind: 'ticket' | 'session' | 'faq' | 'host',
    id: number,
  ): Promise<void> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_SUB_MANAGE');
    const table = (
      { ticket: 'event_tickets', session: 'event_sessions', faq: 'event_faqs', host: 'event_hosts' } as const
    )[kind];
    if (!(await this.d.writes.transaction((repo) => repo.deleteSub(table, eventId, id))))
      throw subNotFound(kind, id, eventId);
  }

  /** A session's times: day with startTime and endTime (the reference), or startAt and endAt. */
  private sessionWindow(input: SessionInput) {
    if (input.day === undefined) return this.rules.window(input);
    if (!input.startTime || !input.endTime)
      throw new ApiError(
        'C0002',
        'Fields "request.startTime" and "request.endTime" go with "request.day"',
        'request.startTime',
      );
    return this.rules.window({ startAt: `${input.day}T${input.startTime}`, endAt: `${input.day}T${input.endTime}` });
  }

  private salesWindow(input: TicketInput, current?: { sales_start_at: number | null; sales_end_at: number | null }) {
    const start = input.salesStartAt === null ? null : this.rules.time('salesStartAt', input.salesStartAt);
    const end = input.salesEndAt === null ? null : this.rules.time('salesEndAt', input.salesEndAt);
    const effectiveStart = start === undefined ? (current?.sales_start_at ?? null) : start;
    const effectiveEnd = end === undefined ? (current?.sales_end_at ?? null) : end;
    if (effectiveStart !== null && effectiveEnd !== null && effectiveEnd <= effectiveStart) {
      throw new ApiError('C0002', 'Field "request.salesEndAt" must be after salesStartAt', 'request.salesEndAt');
    }
    return { start, end };
  }
}
