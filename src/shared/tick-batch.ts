import type { Locale } from './locale.js';

interface Asked<K, V> {
  keys: readonly K[];
  resolve(values: Array<V | undefined>): void;
  reject(err: unknown): void;
}

/**
 * Collects the keys asked for during one turn of the event loop and loads them with one call. Under load,
 * many requests for different ids arrive together: each pays a share of one set of `IN (…)` queries instead
 * of running the whole set alone.
 */
export class TickBatch<K, V> {
  private pending: Array<Asked<K, V>> | null = null;

  /** `loadMany` gets distinct keys and returns what it found; a key it leaves out resolves as undefined. */
  constructor(private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | undefined> {
    return this.loadAll([key]).then(([value]) => value);
  }

  /** The values of `keys`, in their order (undefined where none was found), loaded with this turn's other keys. */
  loadAll(keys: readonly K[]): Promise<Array<V | undefined>> {
    return new Promise((resolve, reject) => {
      if (this.pending === null) {
        this.pending = [];
        // setImmediate runs after the poll phase: every request read in this turn has asked by then.
        setImmediate(() => this.flush());
      }
      this.pending.push({ keys, resolve, reject });
    });
  }

  private flush(): void {
    const asked = this.pending!;
    this.pending = null;
    const keys = new Set<K>();
    for (const { keys: theirs } of asked) for (const key of theirs) keys.add(key);
    this.loadMany([...keys]).then((found) => {
      for (const { keys: theirs, resolve } of asked) resolve(theirs.map((key) => found.get(key)));
    }, (err: unknown) => {
      for (const { reject } of asked) reject(err);
    });
  }
}

/** An id wanted in a locale: a post or job as the API shows it to a reader of that locale. */
export interface InLocale {
  id: number;
  locale: Locale;
}

export function inLocaleKey(id: number, locale: Locale): string {
  return `${locale}|${id}`;
}

/**
 * Reads by id in a locale (a post's or job's detail): those asked for in one turn of the event loop, whatever
 * their locales, are loaded by one call. What it loads is the latest data, as new as any data version its callers
 * read before asking, so callers that read different versions share it.
 */
export class LocaleTickBatch<V> {
  private readonly batch: TickBatch<string, V>;

  /** `loadMany` returns what it found of `wanted`, by `inLocaleKey`. */
  constructor(loadMany: (wanted: InLocale[]) => Promise<Map<string, V>>) {
    this.batch = new TickBatch((keys) => loadMany(keys.map((key) => {
      const bar = key.indexOf('|');
      return { locale: key.slice(0, bar) as Locale, id: Number(key.slice(bar + 1)) };
    })));
  }

  load(locale: Locale, id: number): Promise<V | undefined> {
    return this.batch.load(inLocaleKey(id, locale));
  }
}
