import type { Locale } from './locale.js';
import { groupBy } from './group.js';

/**
 * Collects the keys asked for during one turn of the event loop and loads them with one call. Under load,
 * many requests for different ids arrive together: each pays a share of one set of `IN (…)` queries instead
 * of running the whole set alone (a post detail is about ten statements).
 */
export class TickBatch<K, V> {
  private pending: Map<K, Array<{ resolve(value: V | undefined): void; reject(err: unknown): void }>> | null = null;

  /** `loadMany` gets distinct keys and returns what it found; a key it leaves out resolves as undefined. */
  constructor(private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.pending === null) {
        this.pending = new Map();
        // setImmediate runs after the poll phase: every request read in this turn has asked by then.
        setImmediate(() => this.flush());
      }
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
    });
  }

  private flush(): void {
    const batch = this.pending!;
    this.pending = null;
    this.loadMany([...batch.keys()]).then((found) => {
      for (const [key, waiting] of batch) for (const w of waiting) w.resolve(found.get(key));
    }, (err: unknown) => {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
    });
  }
}

/**
 * Reads by id that depend on a data version and a language (a post or job as the API shows it): the ids
 * asked for in one turn are loaded together, one call per (version, language) among them.
 */
export class VersionedTickBatch<V> {
  private readonly batch: TickBatch<string, V>;

  /** `loadMany` returns what it found of `ids`, by id. */
  constructor(loadMany: (ids: number[], locale: Locale, version: number) => Promise<Map<number, V>>) {
    this.batch = new TickBatch(async (keys) => {
      const found = new Map<string, V>();
      const groups = groupBy(keys, (key) => key.slice(0, key.lastIndexOf('|')));
      await Promise.all([...groups].map(async ([group, members]) => {
        const [version, locale] = group.split('|') as [string, Locale];
        const loaded = await loadMany(members.map((key) => Number(key.slice(group.length + 1))), locale, Number(version));
        for (const [id, value] of loaded) found.set(`${group}|${id}`, value);
      }));
      return found;
    });
  }

  load(version: number, locale: Locale, id: number): Promise<V | undefined> {
    return this.batch.load(`${version}|${locale}|${id}`);
  }
}
