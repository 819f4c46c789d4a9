import { LRUCache } from 'lru-cache';
import { approximateBytes } from './approximate-bytes.js';
import { SeenBefore } from './seen-before.js';

/** The moments a value holds for, [validFrom, validUntil): from when it was built until the data it shows turns. */
export interface Validity {
  validFrom: number;
  validUntil: number;
}

/** Whether `validity` holds at `now`. */
export function holdsAt(validity: Validity, now: number): boolean {
  return validity.validFrom <= now && now < validity.validUntil;
}

interface Kept<V> extends Validity {
  version: number;
  value: V;
}

const ALWAYS: Validity = { validFrom: Number.NEGATIVE_INFINITY, validUntil: Number.POSITIVE_INFINITY };

/**
 * The one cache of values computed from versioned data (data-version.ts): a post's details, a page of search results,
 * a whole response. Each value is kept with the data version it was read at and served only while that version is
 * current, so nothing is invalidated one by one: a write (on any instance) bumps the version and every older entry
 * stops matching. A value that depends on time too (a job opens or closes) holds only within its `Validity`; the
 * clock may move back as well as forward.
 *
 * It holds at most `maxBytes` of values (by `bytesOf`, approximate-bytes.ts unless told), the least recently used going
 * first, and keeps a value only the second time its key is set (seen-before.ts): most keys of realistic traffic come
 * once.
 */
export class VersionedCache<V> {
  private readonly entries: LRUCache<string, Kept<V>>;
  private readonly offered = new SeenBefore();

  constructor(maxBytes: number, bytesOf: (value: V) => number = approximateBytes) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => 64 + key.length * 2 + bytesOf(entry.value),
    });
  }

  /** The value kept for `key` under `version`, when it holds at `now`. */
  get(version: number, key: string, now = 0): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.version !== version) return undefined;
    return holdsAt(entry, now) ? entry.value : undefined;
  }

  /** Keeps `value` when `key` is kept already (under an older version) or has been offered before. */
  set(version: number, key: string, value: V, validity: Validity = ALWAYS): void {
    this.offer(version, key, () => value, validity);
  }

  /**
   * As `set`, for a value worth building only to keep (a response's own copy and its hash): `build` runs only when the
   * key is admitted, and its value is returned; otherwise undefined.
   */
  offer(version: number, key: string, build: () => V, validity: Validity = ALWAYS): V | undefined {
    if (!this.offered.admits(key, this.entries.has(key))) return undefined;
    const value = build();
    this.entries.set(key, { version, value, validFrom: validity.validFrom, validUntil: validity.validUntil });
    return value;
  }
}
