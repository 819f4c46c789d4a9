import type { Selectable } from 'kysely';
import type { ReadSql, ReadText } from '../../db/dialects/read-sql.js';
import type { DB } from '../../db/schema.js';
import { COMPANY_COLUMNS, type CompanyColumns } from '../jobs/company-brief.js';
import type { JsonColumn } from '../posts/post-reads.js';

/**
 * An event as a search page shows it, from one statement: its row, its company, its categories and subjects,
 * its hosts (`[host_type, roles, user handle, name, image, company handle, name, logo]`, in order), and its
 * name and description translated into the asked language where a translation exists.
 */
export type EventItemRow = Selectable<DB['events']> &
  CompanyColumns & {
    categories: JsonColumn<string[]>;
    subjects: JsonColumn<string[]>;
    hosts: JsonColumn<
      Array<[string, string, string | null, string | null, string | null, string | null, string | null, string | null]>
    >;
    t_event_name: string | null;
    t_description: string | null;
  };

/** An event as its detail shows it: also its tickets, sessions, FAQs and attachments, as their rows. */
export type EventDetailRow = EventItemRow & {
  tickets: JsonColumn<Array<Selectable<DB['event_tickets']>>>;
  sessions: JsonColumn<Array<Selectable<DB['event_sessions']>>>;
  faqs: JsonColumn<Array<Selectable<DB['event_faqs']>>>;
  attachments: JsonColumn<Array<Selectable<DB['event_attachments']>>>;
};

const TICKET = [
  'id',
  'event_id',
  'ticket_type',
  'ticket_name',
  'description',
  'approval_required',
  'waiting_required',
  'max_count',
  'sales_start_at',
  'sales_end_at',
  'form_fields',
  'price',
  'currency',
  'created_at',
  'updated_at',
];
const SESSION = [
  'id',
  'event_id',
  'position',
  'title',
  'description',
  'start_at',
  'end_at',
  'video_url',
  'thumbnail_path',
  'speakers',
  'sort_no',
];
const FAQ = ['id', 'event_id', 'position', 'question', 'answer', 'category_name', 'sort_no'];
const ATTACHMENT = ['event_id', 'position', 'media_key', 'file_name'];

/** The rows of a child table of the event, as a JSON array of objects with the table's column names, in `order`. */
function children(sql: ReadSql, table: string, columns: string[], order: string): string {
  return `(SELECT ${sql.jsonAgg(sql.jsonObject(columns.map((column) => [column, `x.${column}`])), order)} FROM ${table} x WHERE x.event_id = e.id)`;
}

function columns(sql: ReadSql, withDetail: boolean): string {
  return `e.*,
  ${COMPANY_COLUMNS},
  (SELECT ${sql.jsonAgg('x.category')} FROM event_categories x WHERE x.event_id = e.id) AS categories,
  (SELECT ${sql.jsonAgg('x.subject')} FROM event_subjects x WHERE x.event_id = e.id) AS subjects,
  (SELECT ${sql.jsonAgg(sql.jsonArray('h.host_type', 'h.roles', 'u.handle', 'u.name', 'u.image_url', 'hc.handle', 'hc.name', 'hc.logo_url'), 'h.position')}
    FROM event_hosts h LEFT JOIN users u ON u.id = h.user_id LEFT JOIN companies hc ON hc.id = h.company_id WHERE h.event_id = e.id) AS hosts,
  t.event_name AS t_event_name, t.description AS t_description${
    withDetail
      ? `,
  ${children(sql, 'event_tickets', TICKET, 'x.id')} AS tickets,
  ${children(sql, 'event_sessions', SESSION, 'x.sort_no, x.position')} AS sessions,
  ${children(sql, 'event_faqs', FAQ, 'x.sort_no, x.position')} AS faqs,
  ${children(sql, 'event_attachments', ATTACHMENT, 'x.position')} AS attachments`
      : ''
  }`;
}

/** Parameters: 1, the ids; 2, the language of translations to join (null: none). */
function statement(withDetail: boolean): ReadText {
  return (sql) => `SELECT ${columns(sql, withDetail)} FROM events e JOIN companies c ON c.id = e.company_id
LEFT JOIN event_translations t ON t.event_id = e.id AND t.language = ${sql.param(2)} AND e.language <> ${sql.param(2)} WHERE ${sql.inArray('e.id', 1, 'text')}`;
}

/** The events of a page of ids (any order; the caller puts them in the page's). */
export const EVENT_ITEMS = statement(false);

/** The events of `ids` as details. */
export const EVENT_DETAILS = statement(true);
