/**
 * Which keys a cache has been offered recently: it keeps a value only when its key comes a second time. Under
 * realistic traffic most keys come once (a random post id, a search nobody repeats), and a cache that keeps every
 * value fills V8's old space with values nobody reads again: each is promoted, survives until the LRU evicts it,
 * and is then collected by a full mark-compact. One bit per key (a hash), with no allocation per offer.
 *
 * The bits (512 KB) are cleared when an eighth of them have been set, so a key is remembered for the last
 * 2^22/8 = 524,288 new keys (about a minute of random details at several thousand a second), and a new key is taken for
 * one seen before at most one time in eight (one in sixteen on average). bench/results/performance-history.md has the measurements.
 */
export class SeenBefore {
  private static readonly LOG2_BITS = 22;
  private readonly words = new Uint32Array((1 << SeenBefore.LOG2_BITS) >>> 5);
  private marked = 0;

  /** The admission rule of the caches: keep `key`'s value when the cache holds `key` already (`held`) or it was offered before. */
  admits(key: string, held: boolean): boolean {
    return held || this.offer(key);
  }

  /** True when `key` was offered before (since the bits were last cleared); otherwise remembers it and says false. */
  private offer(key: string): boolean {
    const bit = Math.imul(stringHash(key), 0x9e3779b1) >>> (32 - SeenBefore.LOG2_BITS);
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    if ((this.words[word]! & mask) !== 0) return true;
    this.words[word]! |= mask;
    if (++this.marked >= (1 << SeenBefore.LOG2_BITS) >>> 3) {
      this.words.fill(0);
      this.marked = 0;
    }
    return false;
  }
}

/** FNV-1a over the string's UTF-16 code units: cheap, and spread well enough for one bit among millions. */
function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}
