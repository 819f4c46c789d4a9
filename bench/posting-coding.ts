/**
 * What the post index's postings take as CRoaring holds them, what other codings would take, and what a search would
 * pay to read one of those back: npm run bench:posting-coding -- [--posts 100000] [--repeat 2000]
 *
 * Every token's posting (not its occurrence tiers) is cut into CRoaring's containers (65,536 document numbers each)
 * and counted by density band: CRoaring's bytes as it keeps them (an array of 2 bytes a document up to 4,096
 * documents, else a bitset of 8 KB), beside two codings a posting index could use instead, worked out from the
 * documents: Elias-Fano (about 2 + log2(65,536 / n) bits a document) and frame-of-reference blocks of 128 gaps, each
 * gap in the bits of its block's largest (as Lucene codes postings). Then, for the broadest postings of the band that
 * holds the most bytes, the CPU time to turn a posting coded one byte a gap back into a bitmap, beside CRoaring's own
 * intersection of the same posting with the live documents: the first step of every search that uses it.
 */
import { parseArgs } from 'node:util';
import { PostIndex } from '../src/modules/posts/post-index.js';
import { openDatabase } from '../src/db/database.js';
import { RoaringBitmap32, type Bitmap } from '../src/search/bitmaps.js';
import { dataset } from './run.js';

const { values } = parseArgs({
  options: { posts: { type: 'string', default: '100000' }, repeat: { type: 'string', default: '2000' } },
});

/** The post index with its current documents in reach (the benchmark reads its postings). */
class InspectedPostIndex extends PostIndex {
  documents() {
    return this.live.current();
  }
}

const target = await dataset({ db: 'sqlite' }, Number(values.posts));
const database = openDatabase({ kind: 'sqlite', url: target.databaseUrl });
const index = new InspectedPostIndex(database, { read: async () => 1 });
await index.ready();
const docs = await index.documents();
const postings = docs.index.tokenNames().flatMap((token) => docs.index.posting(token) ?? []);

const BANDS = [
  ['up to 1%', 655],
  ['1-6% (arrays)', 4096],
  ['6-25% (bitsets)', 16_384],
  ['25-67%', 43_690],
  ['over 67%', 65_536],
] as const;
const bandOf = (n: number) => BANDS.findIndex(([, most]) => n <= most);
const totals = BANDS.map(() => ({ containers: 0, documents: 0, roaring: 0, eliasFano: 0, blocks: 0 }));

/** Bits of the frame-of-reference blocks of 128 gaps for sorted values (a last, partial block at 10 bits a value). */
function blockBits(values: Uint32Array): number {
  let bits = 0;
  let previous = -1;
  for (let i = 0; i < values.length; i += 128) {
    const end = Math.min(values.length, i + 128);
    let widest = 0;
    for (let j = i; j < end; j++) {
      widest = Math.max(widest, values[j]! - previous);
      previous = values[j]!;
    }
    bits += end - i === 128 ? 128 * (32 - Math.clz32(widest)) + 8 : (end - i) * 10;
  }
  return bits;
}

for (const posting of postings) {
  const all = posting.toUint32Array();
  for (let start = 0; start < all.length; ) {
    const high = all[start]! >>> 16;
    let end = start;
    while (end < all.length && all[end]! >>> 16 === high) end++;
    const n = end - start;
    const band = totals[bandOf(n)]!;
    band.containers++;
    band.documents += n;
    band.roaring += (n <= 4096 ? 2 * n : 8192) + 4;
    band.eliasFano += (n * (2 + Math.max(0, Math.floor(Math.log2(65_536 / n)))) + 64) / 8;
    band.blocks += blockBits(all.subarray(start, end).map((value) => value & 0xffff)) / 8;
    start = end;
  }
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(2);
console.log(
  `\n${docs.size.toLocaleString('en')} posts, ${postings.length} tokens: their postings by container density\n`,
);
console.log('| band | containers | documents | CRoaring MB | Elias-Fano MB | blocks of 128 MB |');
console.log('|---|---|---|---|---|---|');
for (const [i, [name]] of BANDS.entries()) {
  const t = totals[i]!;
  console.log(
    `| ${name} | ${t.containers} | ${t.documents.toLocaleString('en')} | ${mb(t.roaring)} | ${mb(t.eliasFano)} | ${mb(t.blocks)} |`,
  );
}
const sum = (key: 'roaring' | 'eliasFano' | 'blocks') => totals.reduce((total, t) => total + t[key], 0);
console.log(`| all | | | ${mb(sum('roaring'))} | ${mb(sum('eliasFano'))} | ${mb(sum('blocks'))} |`);

// The cost of reading a coded posting back: one byte a gap (255, then three bytes, for a wider gap), decoded into a
// sorted array and made a bitmap; CRoaring's intersection with the live documents beside it.
function gapBytes(values: Uint32Array): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  let at = 0;
  let previous = -1;
  for (const value of values) {
    const gap = value - previous - 1;
    previous = value;
    if (gap < 255) out[at++] = gap;
    else {
      out[at++] = 255;
      out[at++] = gap & 255;
      out[at++] = (gap >>> 8) & 255;
      out[at++] = gap >>> 16;
    }
  }
  return out.slice(0, at);
}
function fromGapBytes(bytes: Uint8Array, into: Uint32Array): Bitmap {
  let value = -1;
  let n = 0;
  for (let i = 0; i < bytes.length; ) {
    let gap = bytes[i++]!;
    if (gap === 255) {
      gap = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16);
      i += 3;
    }
    value += gap + 1;
    into[n++] = value;
  }
  return new RoaringBitmap32(into.subarray(0, n));
}
const cpuMicros = (work: () => void, times: number): number => {
  for (let i = 0; i < Math.min(200, times); i++) work();
  const started = process.cpuUsage();
  for (let i = 0; i < times; i++) work();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / times;
};

const heaviest = totals.reduce((best, t, i) => (t.roaring > totals[best]!.roaring ? i : best), 0);
const sample = postings
  .filter((posting) => bandOf(Math.ceil(posting.size / Math.ceil(docs.documents / 65_536))) === heaviest)
  .sort((a, b) => b.size - a.size)
  .slice(0, 5);
const times = Number(values.repeat);
console.log(
  `\nThe ${sample.length} broadest postings of the band "${BANDS[heaviest]![0]}", CPU µs each (${times} times over):\n`,
);
console.log('| documents | CRoaring bytes | one byte a gap | decoded into a bitmap | CRoaring: and(posting, live) |');
console.log('|---|---|---|---|---|');
for (const posting of sample) {
  const coded = gapBytes(posting.toUint32Array());
  const into = new Uint32Array(posting.size);
  const decode = cpuMicros(() => fromGapBytes(coded, into).dispose(), times);
  const and = cpuMicros(() => RoaringBitmap32.and(posting, docs.index.live).dispose(), times);
  console.log(
    `| ${posting.size.toLocaleString('en')} | ${posting.getSerializationSizeInBytes('portable').toLocaleString('en')} | ${coded.length.toLocaleString('en')} | ${decode.toFixed(1)} | ${and.toFixed(1)} |`,
  );
}
await database.close();
process.exit(0);
