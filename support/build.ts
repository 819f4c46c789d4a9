import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { staleBuild } from '../src/build-stamp.js';

/**
 * The service compiled and stamped by `npm run build` in `checkout`, so that what the benchmark, the drills and the
 * deployment drill start is what `npm start` runs. A dist/ that is already the build of the sources beside it (its
 * stamp says so) is used as it is; otherwise the build runs once, here.
 */
export function ensureBuilt(checkout: string): void {
  if (staleBuild(path.join(checkout, 'dist')) === null) return;
  const built = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit', cwd: checkout });
  if (built.status !== 0) throw new Error(`npm run build failed in ${checkout}: the compiled service is needed`);
}
