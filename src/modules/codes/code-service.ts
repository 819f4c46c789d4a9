import { pageOf, type PageResult } from '../../schemas/common.js';
import { ApiError } from '../../shared/api-error.js';
import { DEFAULT_LOCALE, type Locale } from '../../shared/locale.js';
import type { CatalogName } from '../../shared/catalog-data.js';
import type { CodeRepository } from './code-repository.js';

export interface CodeEntry { code: string; displayName: string }

/**
 * Code catalogs, loaded once at start: they change only through migrations, so every request is served
 * from memory.
 */
export class CodeService {
  private catalogs = new Map<string, Array<{ code: string; labels: Map<string, string> }>>();

  constructor(private readonly codes: CodeRepository) {}

  async load(): Promise<void> {
    const catalogs = new Map<string, Array<{ code: string; labels: Map<string, string> }>>();
    for (const row of await this.codes.allLabels()) {
      let entries = catalogs.get(row.catalog);
      if (!entries) catalogs.set(row.catalog, (entries = []));
      let entry = entries.find((e) => e.code === row.code);
      if (!entry) entries.push((entry = { code: row.code, labels: new Map() }));
      entry.labels.set(row.locale, row.display_name);
    }
    this.catalogs = catalogs;
  }

  list(catalog: CatalogName, locale: Locale, page: number, pageSize: number): PageResult<CodeEntry> {
    const entries = this.catalogs.get(catalog) ?? [];
    const items = entries.slice((page - 1) * pageSize, page * pageSize).map((e) => ({
      code: e.code,
      displayName: e.labels.get(locale) ?? e.labels.get(DEFAULT_LOCALE) ?? e.code,
    }));
    return pageOf(items, entries.length, page, pageSize);
  }

  has(catalog: CatalogName, code: string): boolean {
    return (this.catalogs.get(catalog) ?? []).some((e) => e.code === code);
  }

  /**
   * Throws 400 unless every value is a code of the catalog: C0005 for a query parameter, C0002 for a body field.
   * The message names the input, the value and the codes accepted (an old code is never taken for a new one).
   */
  requireCodes(where: 'query' | 'body', name: string, catalog: CatalogName, values: string[] | undefined): void {
    for (const value of values ?? []) {
      if (!this.has(catalog, value)) {
        const [code, input] = where === 'query' ? ['C0005', 'Query parameter'] as const : ['C0002', 'Field'] as const;
        throw new ApiError(code, `${input} "${name}" must hold codes of the ${catalog} catalog (${this.codesOf(catalog).join(', ')}; GET /api/v1/codes/${catalog}), got ${JSON.stringify(value)}`, name);
      }
    }
  }

  codesOf(catalog: CatalogName): string[] {
    return (this.catalogs.get(catalog) ?? []).map((e) => e.code);
  }
}
