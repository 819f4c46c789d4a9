/**
 * What a build is made of besides the bitmaps: token numbers (Vocabulary) and the postings gathered between two
 * flushes (PostingLog). A million posts hold hundreds of millions of token occurrences, nearly all of them Korean,
 * Japanese or Chinese bigrams and characters: each is found by its character codes in a table of numbers, with no
 * string made for it and no map per document, and each posting waits in a typed array until it is added in bulk.
 */
import { grown } from './growing-arrays.js';

/** Slots of the pair table: grown when more than this share is taken. */
const MAX_LOAD = 0.5;

/** Token names and their numbers (0, 1, 2… in order of first sight); CJK tokens are also found by their codes. */
export class Vocabulary {
  readonly names: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Open addressing by the token's codes (`first × 65536 + second`, or the character's code alone; never 0). */
  private keys = new Uint32Array(4096);
  private values = new Int32Array(4096);
  private used = 0;

  get size(): number {
    return this.names.length;
  }

  numberOf(name: string): number | undefined {
    return this.numbers.get(name);
  }

  /** The number of a token, given one when it is new. */
  intern(name: string): number {
    let n = this.numbers.get(name);
    if (n === undefined) {
      n = this.names.push(name) - 1;
      this.numbers.set(name, n);
    }
    return n;
  }

  /** The number of the bigram of two characters of the Basic Multilingual Plane. */
  internPair(first: number, second: number): number {
    return this.internCodes(first * 0x10000 + second);
  }

  /** The number of one character of the Basic Multilingual Plane (never 0: a CJK character). */
  internChar(code: number): number {
    return this.internCodes(code);
  }

  private internCodes(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const held = this.keys[slot]!;
      if (held === key) return this.values[slot]!;
      if (held !== 0) continue;
      // Not seen by its codes: it may have come as text (a copy's tokens, a token beside a rarer character).
      const n = this.intern(
        key < 0x10000 ? String.fromCharCode(key) : String.fromCharCode(Math.floor(key / 0x10000), key % 0x10000),
      );
      this.keys[slot] = key;
      this.values[slot] = n;
      if (++this.used > this.keys.length * MAX_LOAD) this.growTable();
      return n;
    }
  }

  private growTable(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 0) continue;
      let slot = hash(keys[i]!) & mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
    }
  }
}

/** A key below 2^32 spread over the table's slots (Fibonacci hashing; the table has fewer than 2^24 slots). */
function hash(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> 8;
}

/**
 * (key, document) pairs in the order they were added, handed out grouped by key (a counting sort): each key's
 * documents in the order they came, which a build gives in ascending order, the order bitmaps add fastest.
 */
export class PostingLog {
  private keys: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  private docs: Uint32Array<ArrayBuffer> = new Uint32Array(1024);
  length = 0;

  push(key: number, doc: number): void {
    if (this.length === this.keys.length) {
      this.keys = grown(this.keys, this.length + 1);
      this.docs = grown(this.docs, this.length + 1);
    }
    this.keys[this.length] = key;
    this.docs[this.length++] = doc;
  }

  /** Calls `each` with every key's documents (a view, valid during the call), keys below `keyCount`; then empties the log. */
  drain(keyCount: number, each: (key: number, docs: Uint32Array) => void): void {
    if (this.length === 0) return;
    const starts = new Uint32Array(keyCount + 1);
    for (let i = 0; i < this.length; i++) starts[this.keys[i]! + 1]!++;
    for (let key = 0; key < keyCount; key++) starts[key + 1]! += starts[key]!;
    const sorted = new Uint32Array(this.length);
    const next = starts.slice(0, keyCount);
    for (let i = 0; i < this.length; i++) sorted[next[this.keys[i]!]!++] = this.docs[i]!;
    this.length = 0;
    for (let key = 0; key < keyCount; key++) {
      if (starts[key + 1]! > starts[key]!) each(key, sorted.subarray(starts[key]!, starts[key + 1]!));
    }
  }

  /** Lets go of the space a build grew (the log stays usable). */
  release(): void {
    if (this.length > 0) return;
    this.keys = new Uint32Array(1024);
    this.docs = new Uint32Array(1024);
  }
}
