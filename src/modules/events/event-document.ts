/** What the event index (event-index.ts) holds for each event: its texts, and a facet token per filter. */
import { FACETS } from '../../search/fields.js';
import type { SearchDocument } from '../../search/posting-index.js';

/** What the index holds of an event, as its repository reads it. */
export interface EventFacts {
  event_name: string;
  description: string;
  company_id: number;
  event_open_type: string;
  categories: string[];
  subjects: string[];
  translations: string[];
}

/** An event as the index takes it: its texts and translations, and a facet token for each filter. */
export function eventDocument(event: EventFacts): SearchDocument {
  return {
    texts: [event.event_name, event.description, ...event.translations],
    facets: [
      FACETS.company(event.company_id),
      FACETS.openType(event.event_open_type),
      ...event.categories.map(FACETS.eventCategory),
      ...event.subjects.map(FACETS.eventSubject),
    ],
  };
}
