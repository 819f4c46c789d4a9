import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { staleBuild } from '../../src/build-stamp.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The drills' global setup: the service compiled into dist/ by `npm run build`, once for the run and only when dist/
 * is not the build of the sources beside it, so that every server a drill starts and kills runs what `npm start` runs,
 * without compiling TypeScript at each start (server-process.ts).
 */
export default function setup(): void {
  if (staleBuild(path.join(ROOT, 'dist')) === null) return;
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed: the drills run the compiled service');
}
