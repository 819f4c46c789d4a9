import type { ByLanguageRead, PreparedRead, PreparedReads } from '../../db/prepared-reads.js';
import { COMPANY_BY_HANDLE, COMPANY_ITEMS, type CompanyRow, type CompanySummaryRow } from './company-reads.js';

export type { CompanyRow, CompanySummaryRow };

/** The reads of companies, as prepared statements (company-reads.ts): by id (a search's page) and by handle (a detail). */
export class CompanyRepository {
  private readonly itemReads: ByLanguageRead<CompanySummaryRow>;
  private readonly handleRead: PreparedRead<CompanyRow>;

  constructor(reads: PreparedReads) {
    this.itemReads = reads.prepareByLanguage('company_items', COMPANY_ITEMS);
    this.handleRead = reads.prepare('company_by_handle', COMPANY_BY_HANDLE);
  }

  /** The companies of `ids` that exist (in no order), as a page shows them, with their translations into `language`. */
  async items(ids: number[], language: string | null): Promise<CompanySummaryRow[]> {
    return ids.length === 0 ? [] : this.itemReads.inTurn(ids, language);
  }

  /** The company of `handle`, with its translation into `language`; undefined when there is none. */
  async byHandle(handle: string, language: string | null): Promise<CompanyRow | undefined> {
    return (await this.handleRead.all([handle, language]))[0];
  }
}
