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
