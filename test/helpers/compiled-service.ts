import path from 'node:path';
import { ensureBuilt } from '../../support/build.js';

/**
 * The drills' global setup: the service compiled into dist/, once for the run and only when dist/ is not the build of
 * the sources beside it, so that every server a drill starts and kills runs what `npm start` runs, without compiling
 * TypeScript at each start (server-process.ts).
 */
export default function setup(): void {
  ensureBuilt(path.resolve(import.meta.dirname, '../..'));
}
