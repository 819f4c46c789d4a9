import type { CheckedImage, StoredImage } from '../../media/image-uploads.js';
import { ApiError } from '../../shared/api-error.js';
import { timeOrderedId } from '../../shared/ids.js';
import type { EventWriteDeps } from './event-write-deps.js';
import type { EventWriteRules } from './event-write-rules.js';
import type { EventCreateInput, EventUpdateInput } from './event-write-schemas.js';

/** HYBRID, the name this service used first, is the reference's ON_OFFLINE. */
const openType = (value: string | undefined) => (value === 'HYBRID' ? 'ON_OFFLINE' : value);

/** Events of a company (scope event:write): create, update, delete. Their parts: EventSubService. */
export class EventWriteService {
  constructor(
    private readonly d: EventWriteDeps,
    private readonly rules: EventWriteRules,
  ) {}

  async create(
    userId: number,
    companyHandle: string | undefined,
    input: EventCreateInput,
    banner: CheckedImage | undefined,
    attachments: CheckedImage[] = [],
  ) {
    if (!companyHandle)
      throw new ApiError('C0005', 'Query parameter "companyId" is required to create an event', 'companyId');
    const startAt = this.rules.time('startAt', input.startAt)!;
    const endAt = this.rules.time('endAt', input.endAt)!;
    if (endAt <= startAt) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    const company = await this.d.accounts.findCompanyByHandle(companyHandle);
    if (!company) throw new ApiError('C0008', `Company ${companyHandle} does not exist`, 'companyId');
    await this.d.permissions.require(userId, company, 'ENT_EVENT_CREATE');
    const hosts = await this.rules.resolveHosts(input.hosts ?? [], 'request.hosts');
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
    const answer = this.created(id);
    try {
      await this.d.writes.transaction((repo) =>
        repo.insert(
          {
            id,
            company_id: company.id,
            author_user_id: userId,
            status: 'published',
            event_name: input.eventName,
            description: input.description ?? '',
            event_open_type: openType(input.eventOpenType) ?? 'OFFLINE',
            start_at: startAt,
            end_at: endAt,
            access_type: input.accessType ?? 'PUBLIC',
            join_type: input.joinType ?? 'OPEN',
            latitude: input.latitude ?? null,
            longitude: input.longitude ?? null,
            online_link: input.onlineLink ?? null,
            country: input.country ?? null,
            region: input.region ?? null,
            locality: input.locality ?? null,
            location_title: input.locationTitle ?? null,
            location_address: input.locationAddress ?? null,
            location_detail: input.locationDetail ?? null,
            location_description: input.locationDescription ?? null,
            location_hidden: input.locationHidden ? 1 : 0,
            guest_hidden: input.guestHidden ? 1 : 0,
            banner_key: stored?.mediaKey ?? null,
            language: 'ko',
            view_count: 0,
            guest_count: 0,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          },
          input.eventCategories ?? [],
          input.eventSubjects ?? [],
          hosts,
          files,
          answer,
        ),
      );
    } catch (err) {
      await this.d.uploads.discard([...(stored ? [stored.mediaKey] : []), ...files.map((f) => f.mediaKey)]);
      throw err;
    }
    return answer;
  }

  /** The answer to an event create, for the event `eventId` (also for a retry whose first request crashed). */
  created(eventId: string): { eventId: string; webUrl: string } {
    return { eventId, webUrl: this.d.links.event(eventId) };
  }

  async update(userId: number, eventId: string, input: EventUpdateInput, banner: CheckedImage | undefined) {
    const event = await this.rules.authorize(userId, eventId, 'ENT_EVENT_UPDATE');
    const startAt = this.rules.time('startAt', input.startAt) ?? event.start_at;
    const endAt = this.rules.time('endAt', input.endAt) ?? event.end_at;
    if (endAt <= startAt) throw new ApiError('C0002', 'Field "request.endAt" must be after startAt', 'request.endAt');
    const [stored] = await this.d.uploads.storeAll('events', banner ? [banner] : [], 'banner');
    try {
      await this.d.writes.transaction((repo) =>
        repo.update(
          eventId,
          {
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
            start_at: startAt,
            end_at: endAt,
            updated_at: this.d.clock(),
          },
          input.eventCategories,
          input.eventSubjects,
        ),
      );
    } catch (err) {
      await this.d.uploads.discard(stored ? [stored.mediaKey] : []);
      throw err;
    }
    if (stored && event.banner_key) await this.d.uploads.discard([event.banner_key]);
    return { eventId, webUrl: this.d.links.event(eventId) };
  }

  async remove(userId: number, eventId: string): Promise<void> {
    await this.rules.authorize(userId, eventId, 'ENT_EVENT_DELETE');
    const now = this.d.clock();
    await this.d.writes.transaction(async (repo) => {
      const { tickets, guests } = await repo.attendance(eventId);
      if (tickets > 0 || guests > 0) {
        throw new ApiError(
          'EV022',
          `Event ${eventId} has ${tickets} ticket(s) and ${guests} guest(s); delete its tickets first, and an event with guests cannot be deleted`,
          'eventId',
        );
      }
      await repo.update(eventId, { status: 'deleted', deleted_at: now, updated_at: now });
    });
  }
}
