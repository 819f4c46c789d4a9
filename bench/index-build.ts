/**
 * The post index's build from the tables, alone: time, the part of it spent reading the tables, and memory.
 *   npm run bench:index-build -- [--posts 1000000] [--db sqlite|postgres]
 * The data set is the benchmark's of that size (bench/data, or the PostgreSQL schema `npm run bench` made).
 * Run with `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/index-build.ts` for a profile
 * (then `npm run bench:profile -- DIR`).
 */
import { parseArgs } from 'node:util';
import { PostIndex } from '../src/modules/posts/post-index.js';
import { benchDataInPageCache, benchDataName, openBenchData } from './bench-data.js';
import { anonymousRssMb, peakRssMb } from '../support/proc.js';

const { values } = parseArgs({
  options: { posts: { type: 'string', default: '1000000' }, db: { type: 'string', default: 'sqlite' } },
});
const dataName = benchDataName(Number(values.posts));
const database = openBenchData(values.db!, dataName);
await benchDataInPageCache(database, dataName);
global.gc?.();
const rssBefore = anonymousRssMb(process.pid);
const cpuBefore = process.cpuUsage();
const index = new PostIndex(database, { read: async () => 1 });
await index.ready();
const cpu = process.cpuUsage(cpuBefore);
global.gc?.();
const stats = index.stats();
console.log(
  `${values.db}: ${stats.items.toLocaleString('en')} posts built from the tables in ${(stats.readyInMs / 1000).toFixed(1)} s ` +
    `(CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s); ${stats.tokens.toLocaleString('en')} tokens, ${(stats.bytes / 1e6).toFixed(0)} MB of bitmaps; ` +
    `anonymous resident +${(anonymousRssMb(process.pid) - rssBefore).toFixed(0)} MB, peak RSS ${peakRssMb(process.pid).toFixed(0)} MB`,
);
await database.close();
