import { ApiError } from '../../shared/api-error.js';
import { DEFAULT_LOCALE, type Locale } from '../../shared/locale.js';
import type { CatalogName } from '../../shared/catalog-data.js';
import type { CodeRepository } from './code-repository.js';

export interface CodeEntry {
  code: string;
  displayName: string;
  description: string;
}
export interface IndustryGroup {
  code: string;
  displayName: string;
  children: Array<{ code: string; displayName: string }>;
}

interface Entry {
  code: string;
  parent: string | null;
  labels: Map<string, { displayName: string; description: string }>;
}

/**
 * Code catalogs, loaded once at start: they change only through migrations, so every request is served
 * from memory. A catalog is a bare array, as the real service serves it; the job industries are groups whose
 * `children` are the industry codes companies carry.
 */
export class CodeService {
  /** Each catalog's codes, the ones data carries (a job industry's group is not one). */
  private catalogs = new Map<string, Entry[]>();
  /** Each catalog's codes by code. */
  private byCode = new Map<string, Map<string, Entry>>();
  /** The job industries' groups, each with its industries, in display order. */
  private groups: Array<{ group: Entry; children: Entry[] }> = [];

  constructor(private readonly codes: CodeRepository) {}

  async load(): Promise<void> {
    const all = new Map<string, Map<string, Entry>>();
    for (const row of await this.codes.allLabels()) {
      let entries = all.get(row.catalog);
      if (!entries) all.set(row.catalog, (entries = new Map()));
      let entry = entries.get(row.code);
      if (!entry) entries.set(row.code, (entry = { code: row.code, parent: row.parent, labels: new Map() }));
      entry.labels.set(row.locale, { displayName: row.display_name, description: row.description });
    }
    // A job industry's group is the entry its leaves name as parent; the groups themselves have none.
    this.catalogs = new Map(
      [...all].map(([catalog, entries]) => [
        catalog,
        [...entries.values()].filter((e) => catalog !== 'job-industries' || e.parent !== null),
      ]),
    );
    this.byCode = new Map(
      [...this.catalogs].map(([catalog, entries]) => [catalog, new Map(entries.map((e) => [e.code, e]))]),
    );
    const leaves = this.catalogs.get('job-industries') ?? [];
    this.groups = [...(all.get('job-industries')?.values() ?? [])]
      .filter((e) => e.parent === null)
      .map((group) => ({ group, children: leaves.filter((e) => e.parent === group.code) }));
  }

  list(catalog: Exclude<CatalogName, 'job-industries'>, locale: Locale): CodeEntry[] {
    return (this.catalogs.get(catalog) ?? []).map((e) => ({ code: e.code, ...labelOf(e, locale) }));
  }

  /** The job industries under their groups, in display order. */
  industries(locale: Locale): IndustryGroup[] {
    return this.groups.map(({ group, children }) => ({
      code: group.code,
      displayName: labelOf(group, locale).displayName,
      children: children.map((e) => ({ code: e.code, displayName: labelOf(e, locale).displayName })),
    }));
  }

  /** The name of a code in `locale` (the code itself when the catalog does not have it). */
  displayName(catalog: CatalogName, code: string, locale: Locale): string {
    const entry = this.byCode.get(catalog)?.get(code);
    return entry ? labelOf(entry, locale).displayName : code;
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
        const [code, input] =
          where === 'query' ? (['C0005', 'Query parameter'] as const) : (['C0002', 'Field'] as const);
        throw new ApiError(
          code,
          `${input} "${name}" must hold codes of the ${catalog} catalog (${this.codesOf(catalog).join(', ')}; GET /api/v1/codes/${catalog}), got ${JSON.stringify(value)}`,
          name,
        );
      }
    }
  }

  codesOf(catalog: CatalogName): string[] {
    return (this.catalogs.get(catalog) ?? []).map((e) => e.code);
  }
}

function labelOf(entry: Entry, locale: Locale): { displayName: string; description: string } {
  return entry.labels.get(locale) ?? entry.labels.get(DEFAULT_LOCALE) ?? { displayName: entry.code, description: '' };
}
