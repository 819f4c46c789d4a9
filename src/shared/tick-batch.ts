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

  /**
   * `keyOf` names a key (keys with the same name are the same key); `loadMany` gets distinct keys and returns,
   * in their order, what it found of each (undefined: nothing).
   */
  constructor(
    private readonly keyOf: (key: K) => string,
    private readonly loadMany: (keys: K[]) => Promise<Array<V | undefined>>,
  ) {}

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
    const distinct = new Map<string, K>();
    for (const { keys } of asked) {
      for (const key of keys) {
        const name = this.keyOf(key);
        if (!distinct.has(name)) distinct.set(name, key);
      }
    }
    const names = [...distinct.keys()];
    this.loadMany([...distinct.values()]).then(
      (values) => {
        const found = new Map(names.map((name, i) => [name, values[i]]));
        for (const { keys, resolve } of asked) resolve(keys.map((key) => found.get(this.keyOf(key))));
      },
      (err: unknown) => {
        for (const { reject } of asked) reject(err);
      },
    );
  }
}

/** An id wanted in a locale: a post or job as the API shows it to a reader of that locale. */
export interface InLocale {
  id: number;
  locale: Locale;
}

/** The name of an id in a locale (the key of its cached detail, and of its read in a turn's batch). */
export function inLocaleKey({ id, locale }: InLocale): string {
  return `${locale}|${id}`;
}
