import type { Static } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toLocalDateTime, toUtcIso } from '../../shared/time.js';
import type { EventFaq, EventSession, FaqCategory, FormField, SessionTimeSlot, Ticket } from './event-schemas.js';

type TicketDto = Static<typeof Ticket>;
type SessionDto = Static<typeof EventSession>;
type FaqDto = Static<typeof EventFaq>;
type TicketRow = Selectable<DB['event_tickets']>;
type SessionRow = Selectable<DB['event_sessions']>;
type FaqRow = Selectable<DB['event_faqs']>;

/** What a ticket's answer needs of its event: when it ends, and how many guests it has. */
export interface EventFacts {
  endAt: number;
  guestCount: number;
}

const optionalIso = (ms: number | null) => (ms === null ? null : toUtcIso(ms));

export function ticketOf(t: TicketRow, event: EventFacts): TicketDto {
  return {
    ticketId: t.id,
    ticketType: t.ticket_type === 'CHARGED' ? 'CHARGED' : 'FREE',
    ticketName: t.ticket_name,
    description: t.description,
    price: t.price,
    currency: t.currency,
    approvalRequired: t.approval_required === 1,
    waitingRequired: t.waiting_required === 1,
    maxCount: t.max_count,
    maxPerPerson: null,
    soldOut: t.max_count !== null && event.guestCount >= t.max_count,
    saleStartAt: toUtcIso(t.sales_start_at ?? t.created_at),
    saleEndAt: toUtcIso(t.sales_end_at ?? event.endAt),
    salesStartAt: optionalIso(t.sales_start_at),
    salesEndAt: optionalIso(t.sales_end_at),
    formFields: JSON.parse(t.form_fields) as Array<Static<typeof FormField>>,
  };
}

export function sessionOf(s: SessionRow): SessionDto {
  const speakers = JSON.parse(s.speakers) as Array<{ speakerName: string; jobOrDept?: string | null }>;
  return {
    sessionId: s.id,
    sessionName: s.title,
    videoUrl: s.video_url,
    thumbnailUrl: s.thumbnail_path,
    speakers: speakers.map((p) => ({ name: p.speakerName, jobOrDept: p.jobOrDept ?? null })),
    tags: [],
    sortNo: s.sort_no,
    title: s.title,
    description: s.description,
    startAt: optionalIso(s.start_at),
    endAt: optionalIso(s.end_at),
  };
}

/**
 * Sessions by time slot, as the reference lists them: the day and the start and end times in the service time
 * zone, in order. A session without times of its own takes the event's.
 */
export function sessionSlots(
  rows: SessionRow[],
  event: { startAt: number; endAt: number },
  timeZone: string,
): Array<Static<typeof SessionTimeSlot>> {
  const slots = new Map<string, Static<typeof SessionTimeSlot> & { at: number }>();
  for (const row of rows) {
    const start = row.start_at ?? event.startAt;
    const end = row.end_at ?? event.endAt;
    const from = toLocalDateTime(start, timeZone);
    const to = toLocalDateTime(end, timeZone);
    const key = `${from}|${to}`;
    let slot = slots.get(key);
    if (!slot)
      slots.set(
        key,
        (slot = {
          day: from.slice(0, 10),
          startTime: from.slice(11, 16),
          endTime: to.slice(11, 16),
          sessions: [],
          at: start,
        }),
      );
    slot.sessions.push(sessionOf(row));
  }
  return [...slots.values()].sort((a, b) => a.at - b.at).map(({ at: _at, ...slot }) => slot);
}

export function faqOf(f: FaqRow): FaqDto {
  return {
    faqId: f.id,
    title: f.question,
    content: f.answer,
    sortNo: f.sort_no,
    question: f.question,
    answer: f.answer,
  };
}

/** FAQs by category, categories in the order of their first FAQ. */
export function faqCategories(rows: FaqRow[]): Array<Static<typeof FaqCategory>> {
  const categories = new Map<string, FaqDto[]>();
  for (const row of rows) {
    const list = categories.get(row.category_name) ?? [];
    list.push(faqOf(row));
    categories.set(row.category_name, list);
  }
  return [...categories].map(([categoryName, faqs]) => ({ categoryName, faqs }));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The description as HTML: its text escaped, blank lines between paragraphs, single line breaks kept; null when empty. */
export function descriptionHtml(text: string): string | null {
  if (!text.trim()) return null;
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  return escaped
    .split(/\r?\n\s*\r?\n/)
    .map((p) => `<p>${p.trim().replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}
