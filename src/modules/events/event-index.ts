/**
 * What event search is (docs/search.md): the published events, their name, description and translations as text,
 * their company, categories, subjects and open type as facets, in start order, each under way from its start to its
 * end (a span: UPCOMING, ONGOING and CLOSED are phases at the moment of the search). The engine
 * (search/search-index.ts) does the rest; the events are read from the tables by event-search-repository.ts.
 */
import path from 'node:path';
import { DataVersion } from '../../cache/data-version.js';
import type { Database } from '../../db/database.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { FACET_KIND, FACETS } from '../../search/fields.js';
import type { IndexLog } from '../../search/live-index.js';
import {
  anyOf,
  SearchIndex,
  timeWindow,
  type Declaration,
  type FacetRule,
  type Phase,
} from '../../search/search-index.js';
import type { QueryWord } from '../../search/search-text.js';
import type { EventFacet } from './event-schemas.js';
import { eventSearchRows } from './event-search-repository.js';

export interface EventSearchFilter {
  /** Keyword terms (search-text.ts queryTerms), all required; null without a keyword. */
  terms: string[] | null;
  /** The keyword's words, when its typos are tolerated (typo-tolerance.ts). */
  typoWords?: QueryWord[];
  startFrom?: number;
  startTo?: number;
  /** Which events, as of `now`: not started, started and not ended, or ended. */
  status?: { is: 'UPCOMING' | 'ONGOING' | 'CLOSED'; now: number };
  companyId?: number;
  categories?: string[];
  subjects?: string[];
  openTypes?: string[];
  order: 'rank' | 'newest' | 'oldest';
  limit: number;
  offset: number;
  /** Facets whose counts are wanted besides the page; company values are company ids. */
  facets?: readonly EventFacet[];
}

const PHASES: Record<NonNullable<EventSearchFilter['status']>['is'], Phase> = {
  UPCOMING: 'UPCOMING',
  ONGOING: 'ONGOING',
  CLOSED: 'ENDED',
};

export const EVENT_SEARCH: Declaration<EventSearchFilter> = {
  kind: 'event',
  name: 'events',
  numbers: ['end'],
  facets: {
    companyId: { kind: FACET_KIND.company, top: FACET_TOP },
    categories: { kind: FACET_KIND.eventCategory },
    subjects: { kind: FACET_KIND.eventSubject },
    openTypes: { kind: FACET_KIND.openType },
  } satisfies Record<EventFacet, FacetRule>,
  ends: 'end',
  query: (filter) => ({
    terms: filter.terms,
    typoWords: filter.typoWords,
    filters: {
      companyId: filter.companyId === undefined ? undefined : { any: [FACETS.company(filter.companyId)] },
      categories: anyOf(filter.categories, FACETS.eventCategory),
      subjects: anyOf(filter.subjects, FACETS.eventSubject),
      openTypes: anyOf(filter.openTypes, FACETS.openType),
    },
    window: timeWindow(filter.startFrom, filter.startTo),
    phase: filter.status && { now: filter.status.now, is: PHASES[filter.status.is] },
    order: filter.order,
    limit: filter.limit,
    offset: filter.offset,
    facets: filter.facets,
  }),
};

/** Where an instance keeps the event index's saved copy. */
export const eventIndexCopy = (dataDir: string): string => path.join(dataDir, 'search-index', 'events.idx');

/** The event index of an instance (or of a command, or a test): the engine over the event declaration and the events' rows. */
export class EventIndex extends SearchIndex<EventSearchFilter> {
  constructor(
    database: Pick<Database, 'db' | 'reads'>,
    version: { read(): Promise<number> } = new DataVersion(database.reads, 'events'),
    copyFile: string | null = null,
    clock: () => number = Date.now,
    log?: IndexLog,
  ) {
    super(EVENT_SEARCH, database.db, eventSearchRows(database.db), version, copyFile, log, clock);
  }
}
