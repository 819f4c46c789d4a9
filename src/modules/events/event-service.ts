import { ApiError, notFound } from '../../shared/api-error.js';
import { groupBy } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { TRANSLATED_LANGUAGES, type Locale } from '../../shared/locale.js';
import { dateBoundary, parseDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, type PageResult } from '../../schemas/common.js';
import { NO_COMPANY } from '../../search/facet-counts.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { CodeService } from '../codes/code-service.js';
import type { EventRepository, EventSearchFilter } from './event-repository.js';
import { descriptionHtml, faqCategories, faqOf, sessionOf, sessionSlots, ticketOf } from './event-parts.js';
import type { EventDetailDto, EventSearchQueryInput, EventSummaryDto } from './event-schemas.js';

type OpenType = EventSummaryDto['eventOpenType'];
type Size = EventSummaryDto['company']['size'];

const nullIfHidden = <T>(hidden: boolean, value: T): T | null => (hidden ? null : value);

export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly accounts: AccountsRepository,
    private readonly codes: CodeService,
    private readonly links: Links,
    private readonly clock: () => number,
    private readonly timeZone: string,
  ) {}

  async search(query: EventSearchQueryInput, locale: Locale): Promise<PageResult<EventSummaryDto>> {
    const { page, pageSize } = query;
    const union = <T>(a: T[] | undefined, b: T[] | undefined) => (a || b ? [...new Set([...(a ?? []), ...(b ?? [])])] : undefined);
    const categories = union(query.categories, query.eventCategories);
    const subjects = union(query.subjects, query.eventSubjects);
    const openTypes = union<string>(query.openTypes, query.eventOpenTypes)?.map((t) => (t === 'HYBRID' ? 'ON_OFFLINE' : t));
    this.codes.requireCodes(query.categories ? 'categories' : 'eventCategories', 'event-categories', categories);
    this.codes.requireCodes(query.subjects ? 'subjects' : 'eventSubjects', 'event-subjects', subjects);
    const companyId = query.companyId ? await this.accounts.companyIdByHandle(query.companyId) ?? NO_COMPANY : undefined;
    const filter: EventSearchFilter = {
      words: query.keyword?.split(/\s+/).filter(Boolean),
      startFrom: this.day('startDateFrom', query.startDateFrom, 'start'),
      startTo: this.day('startDateTo', query.startDateTo, 'end'),
      status: query.status ? { is: query.status, now: this.clock() } : undefined,
      companyId,
      categories,
      subjects,
      openTypes,
      ascending: query.sort === 'START_AT_ASC',
      limit: pageSize,
      offset: (page - 1) * pageSize,
    };
    const facetNames = [...new Set(query.facets ?? [])];
    const [{ total, ids }, ...counts] = await Promise.all([
      this.events.search(filter), ...facetNames.map((name) => this.events.facetCounts(filter, name)),
    ]);
    const items = (await this.hydrate(ids, locale)).map(({ summary }) => summary);
    const facets = facetNames.length ? Object.fromEntries(facetNames.map((name, i) => [name, counts[i]!])) : undefined;
    return pageOf(items, total, page, pageSize, facets);
  }

  async detail(eventId: string, locale: Locale): Promise<EventDetailDto> {
    const [event] = await this.hydrate([eventId], locale);
    if (!event || event.row.status !== 'published') throw notFound.event(eventId);
    const [tickets, sessions, faqs, attachments] = await Promise.all([
      this.events.ticketsOf(eventId), this.events.sessionsOf(eventId), this.events.faqsOf(eventId), this.events.attachmentsOf(eventId),
    ]);
    const { row } = event;
    return {
      attachments: attachments.map((a) => ({ url: this.links.image(a.media_key)!, fileName: a.file_name })),
      ...event.summary,
      description: event.description,
      descriptionHtml: descriptionHtml(event.description),
      eventStatus: 'PUBLISHED',
      accessType: row.access_type as EventDetailDto['accessType'],
      joinType: row.join_type as EventDetailDto['joinType'],
      onlineLink: row.online_link,
      tickets: tickets.map((t) => ticketOf(t, { endAt: row.end_at, guestCount: row.guest_count })),
      sessions: sessions.map(sessionOf),
      faqs: faqs.map((f) => ({ ...faqOf(f), categoryName: f.category_name })),
      createdAt: toUtcIso(row.created_at),
      updatedAt: toUtcIso(row.updated_at),
    };
  }

  /** GET …/tickets: the tickets of a published event. */
  async tickets(eventId: string) {
    const row = await this.published(eventId);
    return (await this.events.ticketsOf(eventId)).map((t) => ticketOf(t, { endAt: row.end_at, guestCount: row.guest_count }));
  }

  /** GET …/sessions: the sessions of a published event, by time slot. */
  async sessions(eventId: string) {
    const row = await this.published(eventId);
    return sessionSlots(await this.events.sessionsOf(eventId), { startAt: row.start_at, endAt: row.end_at }, this.timeZone);
  }

  /** GET …/faqs: the FAQs of a published event, by category. */
  async faqs(eventId: string) {
    await this.published(eventId);
    return faqCategories(await this.events.faqsOf(eventId));
  }

  /** The row of a published event (the lists need no hosts, codes or translations of it), else 404 EV001. */
  private async published(eventId: string) {
    const [row] = await this.events.findByIds([eventId]);
    if (!row || row.status !== 'published') throw notFound.event(eventId);
    return row;
  }

  private async hydrate(ids: string[], locale: Locale) {
    if (ids.length === 0) return [];
    const [rows, categories, subjects, hosts, translations] = await Promise.all([
      this.events.findByIds(ids),
      this.events.categoriesOf(ids),
      this.events.subjectsOf(ids),
      this.events.hostsOf(ids),
      TRANSLATED_LANGUAGES.has(locale) ? this.events.translationsOf(ids, locale) : Promise.resolve([]),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const categoriesBy = groupBy(categories, (c) => c.event_id);
    const subjectsBy = groupBy(subjects, (s) => s.event_id);
    const hostsBy = groupBy(hosts, (h) => h.event_id);
    const translationBy = new Map(translations.map((t) => [t.event_id, t]));
    const categoryOrder = this.codes.codesOf('event-categories');
    const subjectOrder = this.codes.codesOf('event-subjects');

    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      const translation = row.language !== locale ? translationBy.get(id) : undefined;
      const locationHidden = row.location_hidden === 1;
      const hasLocation = row.event_open_type !== 'ONLINE';
      const summary: EventSummaryDto = {
        eventId: row.id,
        eventName: translation?.event_name ?? row.event_name,
        eventCategories: (categoriesBy.get(id) ?? []).map((c) => c.category)
          .sort((a, b) => categoryOrder.indexOf(a) - categoryOrder.indexOf(b)),
        eventSubjects: (subjectsBy.get(id) ?? []).map((s) => s.subject)
          .sort((a, b) => subjectOrder.indexOf(a) - subjectOrder.indexOf(b)),
        eventOpenType: row.event_open_type as OpenType,
        startAt: toUtcIso(row.start_at),
        endAt: toUtcIso(row.end_at),
        location: hasLocation && !locationHidden
          ? {
            country: row.country, region: row.region, locality: row.locality, placeName: row.location_title,
            address: row.location_address, addressDetail: row.location_detail, directions: row.location_description,
            latitude: row.latitude, longitude: row.longitude,
            title: row.location_title, detail: row.location_detail, description: row.location_description,
          }
          : null,
        bannerUrl: this.links.image(row.banner_key),
        hosts: (hostsBy.get(id) ?? []).map((h) => {
          const isCompany = h.host_type === 'COMPANY';
          return {
            hostType: isCompany ? 'COMPANY' as const : 'MEMBER' as const,
            id: (isCompany ? h.company_handle : h.user_handle) ?? '',
            name: (isCompany ? h.company_name : h.user_name) ?? '',
            profileImageUrl: this.links.image((isCompany ? h.company_logo_url : h.user_image_url) ?? null),
            imageUrl: this.links.image((isCompany ? h.company_logo_url : h.user_image_url) ?? null),
            roles: JSON.parse(h.roles) as string[],
          };
        }),
        stats: { viewCount: row.view_count, guestCount: nullIfHidden(row.guest_hidden === 1, row.guest_count) },
        company: {
          name: row.company_name,
          id: row.company_handle,
          logoUrl: this.links.image(row.company_logo_url),
          industry: row.company_industry,
          size: row.company_size as Size,
        },
        webUrl: this.links.event(row.id),
        language: translation ? locale : row.language,
      };
      return [{ row, summary, description: translation?.description ?? row.description }];
    });
  }

  /** A date (the start or end of that day in the service time zone) or an ISO date-time; 400 C0005 otherwise. */
  private day(name: string, value: string | undefined, edge: 'start' | 'end'): number | undefined {
    if (value === undefined || value === '') return undefined;
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? dateBoundary(value, edge, this.timeZone) : parseDateTime(value, this.timeZone);
    if (ms === null) throw new ApiError('C0005', `Query parameter "${name}" must be a date such as 2026-12-01 or an ISO date-time, got ${JSON.stringify(value)}`, name);
    return ms;
  }
}
