import { ApiError, notFound } from '../../shared/api-error.js';
import { inIdOrder } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { translationLanguage, type Locale } from '../../shared/locale.js';
import { dateBoundary, parseSearchTime, toListDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, withCorrection, type PageResult } from '../../schemas/common.js';
import { NO_COMPANY, noMatchFacets, withCompanyHandles } from '../../search/facet-counts.js';
import { highlightsOf } from '../../search/highlights.js';
import type { Searchable } from '../../search/search-index.js';
import { queryTerms, queryWords } from '../../search/search-text.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import { EVENT_CATEGORIES, EVENT_SUBJECTS, inCodeOrder } from '../../shared/catalog-data.js';
import { companyBriefOf } from '../jobs/company-brief.js';
import { jsonColumn } from '../posts/post-reads.js';
import type { EventItemRow } from './event-reads.js';
import type { EventSearchFilter } from './event-index.js';
import type { EventRepository } from './event-repository.js';
import { descriptionHtml, faqCategories, faqOf, sessionOf, sessionSlots, ticketOf } from './event-parts.js';
import type { EventDetailDto, EventSearchQueryInput, EventSummaryDto } from './event-schemas.js';

type OpenType = EventSummaryDto['eventOpenType'];

const nullIfHidden = <T>(hidden: boolean, value: T): T | null => (hidden ? null : value);

export class EventService {
  constructor(
    private readonly events: EventRepository,
    private readonly index: Searchable<EventSearchFilter>,
    private readonly accounts: AccountsRepository,
    private readonly links: Links,
    private readonly clock: () => number,
    private readonly timeZone: string,
  ) {}

  async search(query: EventSearchQueryInput, locale: Locale): Promise<PageResult<EventSummaryDto>> {
    const { page, pageSize } = query;
    const facetNames = query.facets && [...new Set(query.facets)];
    const filter = await this.searchFilter(query);
    if (filter === null) return pageOf<EventSummaryDto>([], 0, page, pageSize, noMatchFacets(facetNames));
    const { total, ids, facets, didYouMean, corrections } = await this.index.search(filter);
    const [summaries, named] = await Promise.all([
      this.hydrate(await this.events.idsOf(ids), locale),
      withCompanyHandles(facets, (companyIds) => this.accounts.companyHandles(companyIds)),
    ]);
    const terms = new Set([...(filter.terms ?? []), ...(corrections ?? [])]);
    const items = summaries.map(({ summary, description }) =>
      query.highlight
        ? {
            ...summary,
            highlights: highlightsOf(
              [
                ['eventName', summary.eventName],
                ['description', description],
              ],
              terms,
            ),
          }
        : summary,
    );
    return withCorrection(pageOf(items, total, page, pageSize, named), didYouMean);
  }

  /** The index filter of an event search, or null when nothing can match (a keyword with no searchable terms). */
  private async searchFilter(query: EventSearchQueryInput): Promise<EventSearchFilter | null> {
    const keyword = query.keyword?.trim() ?? '';
    const terms = keyword === '' ? null : queryTerms(keyword);
    if (terms !== null && terms.length === 0) return null;
    const union = <T>(a: T[] | undefined, b: T[] | undefined) =>
      a || b ? [...new Set([...(a ?? []), ...(b ?? [])])] : undefined;
    const filter: EventSearchFilter = {
      terms,
      startFrom: this.day('startDateFrom', query.startDateFrom, 'start'),
      startTo: this.day('startDateTo', query.startDateTo, 'end'),
      status: query.status ? { is: query.status, now: this.clock() } : undefined,
      categories: union(query.categories, query.eventCategories),
      subjects: union(query.subjects, query.eventSubjects),
      openTypes: union<string>(query.openTypes, query.eventOpenTypes)?.map((t) => (t === 'HYBRID' ? 'ON_OFFLINE' : t)),
      order: query.sort === 'START_AT_ASC' ? 'oldest' : query.sort === 'RELEVANCE' ? 'rank' : 'newest',
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
      facets: query.facets && [...new Set(query.facets)],
    };
    if (query.typoTolerance && terms !== null) filter.typoWords = queryWords(keyword);
    if (query.companyId) filter.companyId = (await this.accounts.companyIdByHandle(query.companyId)) ?? NO_COMPANY;
    return filter;
  }

  /** One statement: the event with its hosts, codes, translation, tickets, sessions, FAQs and attachments. */
  async detail(eventId: string, locale: Locale): Promise<EventDetailDto> {
    const [row] = await this.events.details([eventId], translationLanguage(locale));
    if (!row || row.status !== 'published') throw notFound.event(eventId);
    const { summary, description } = this.hydrated(row, locale);
    return {
      attachments: jsonColumn(row.attachments).map((a) => ({
        url: this.links.image(a.media_key)!,
        fileName: a.file_name,
      })),
      ...summary,
      startAt: toUtcIso(row.start_at),
      endAt: toUtcIso(row.end_at),
      description,
      descriptionHtml: descriptionHtml(description),
      eventStatus: 'PUBLISHED',
      accessType: row.access_type as EventDetailDto['accessType'],
      joinType: row.join_type as EventDetailDto['joinType'],
      onlineLink: row.online_link,
      tickets: jsonColumn(row.tickets).map((t) => ticketOf(t, { endAt: row.end_at, guestCount: row.guest_count })),
      sessions: jsonColumn(row.sessions).map(sessionOf),
      faqs: jsonColumn(row.faqs).map((f) => ({ ...faqOf(f), categoryName: f.category_name })),
      createdAt: toUtcIso(row.created_at),
      updatedAt: toUtcIso(row.updated_at),
    };
  }

  /** GET …/tickets: the tickets of a published event. */
  async tickets(eventId: string) {
    const row = await this.published(eventId);
    return (await this.events.ticketsOf(eventId)).map((t) =>
      ticketOf(t, { endAt: row.end_at, guestCount: row.guest_count }),
    );
  }

  /** GET …/sessions: the sessions of a published event, by time slot. */
  async sessions(eventId: string) {
    const row = await this.published(eventId);
    return sessionSlots(
      await this.events.sessionsOf(eventId),
      { startAt: row.start_at, endAt: row.end_at },
      this.timeZone,
    );
  }

  /** GET …/faqs: the FAQs of a published event, by category. */
  async faqs(eventId: string) {
    await this.published(eventId);
    return faqCategories(await this.events.faqsOf(eventId));
  }

  /** What the lists need of a published event (no hosts, codes or translations), else 404 EV001. */
  private async published(eventId: string) {
    const row = await this.events.factsOf(eventId);
    if (!row || row.status !== 'published') throw notFound.event(eventId);
    return row;
  }

  /** The events of `ids` that exist, in that order, in one statement. */
  private async hydrate(ids: string[], locale: Locale) {
    return inIdOrder(ids, await this.events.items(ids, translationLanguage(locale))).map((row) =>
      this.hydrated(row, locale),
    );
  }

  private hydrated(row: EventItemRow, locale: Locale): { summary: EventSummaryDto; description: string } {
    const translated = row.t_event_name !== null;
    const locationHidden = row.location_hidden === 1;
    const hasLocation = row.event_open_type !== 'ONLINE';
    const summary: EventSummaryDto = {
      eventId: row.id,
      eventName: translated ? row.t_event_name! : row.event_name,
      eventCategories: inCodeOrder(jsonColumn<string>(row.categories), EVENT_CATEGORIES),
      eventSubjects: inCodeOrder(jsonColumn<string>(row.subjects), EVENT_SUBJECTS),
      eventOpenType: row.event_open_type as OpenType,
      startAt: toListDateTime(row.start_at),
      endAt: toListDateTime(row.end_at),
      location:
        hasLocation && !locationHidden
          ? {
              country: row.country,
              region: row.region,
              locality: row.locality,
              placeName: row.location_title,
              address: row.location_address,
              addressDetail: row.location_detail,
              directions: row.location_description,
              latitude: row.latitude,
              longitude: row.longitude,
              title: row.location_title,
              detail: row.location_detail,
              description: row.location_description,
            }
          : null,
      bannerUrl: this.links.image(row.banner_key),
      hosts: jsonColumn(row.hosts).map(
        ([hostType, roles, userHandle, userName, userImage, companyHandle, companyName, companyLogo]) => {
          const isCompany = hostType === 'COMPANY';
          const image = this.links.image((isCompany ? companyLogo : userImage) ?? null);
          return {
            hostType: isCompany ? ('COMPANY' as const) : ('MEMBER' as const),
            id: (isCompany ? companyHandle : userHandle) ?? '',
            name: (isCompany ? companyName : userName) ?? '',
            profileImageUrl: image,
            imageUrl: image,
            roles: JSON.parse(roles) as string[],
          };
        },
      ),
      stats: { viewCount: row.view_count, guestCount: nullIfHidden(row.guest_hidden === 1, row.guest_count) },
      company: companyBriefOf(row, this.links),
      webUrl: this.links.event(row.id),
      language: translated ? locale : row.language,
    };
    return { summary, description: translated ? (row.t_description ?? '') : row.description };
  }

  /** A date (the start or end of that day in the service time zone) or a date-time (parseSearchTime); 400 C0005 otherwise. */
  private day(name: string, value: string | undefined, edge: 'start' | 'end'): number | undefined {
    if (value === undefined || value === '') return undefined;
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? dateBoundary(value, edge, this.timeZone)
      : parseSearchTime(value, this.timeZone);
    if (ms === null)
      throw new ApiError(
        'C0005',
        `Query parameter "${name}" must be a date such as 2026-12-01 or an ISO date-time, got ${JSON.stringify(value)}`,
        name,
      );
    return ms;
  }
}
