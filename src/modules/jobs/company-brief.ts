import type { Static } from '@sinclair/typebox';
import type { Links } from '../../shared/links.js';
import type { CompanyBrief } from './job-schemas.js';

/** The columns of the company a job or an event reads select, joined as `c`. */
export const COMPANY_COLUMNS =
  'c.handle AS company_handle, c.name AS company_name, c.logo_url AS company_logo_url, c.industry AS company_industry, c.size AS company_size';

export interface CompanyColumns {
  company_handle: string;
  company_name: string;
  company_logo_url: string | null;
  company_industry: string;
  company_size: string;
}

/** The company of a job or an event as lists and details show it. */
export function companyBriefOf(row: CompanyColumns, links: Links): Static<typeof CompanyBrief> {
  return {
    name: row.company_name,
    id: row.company_handle,
    logoUrl: links.image(row.company_logo_url),
    industry: row.company_industry,
    size: row.company_size as Static<typeof CompanyBrief>['size'],
  };
}
