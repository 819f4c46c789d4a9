import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The releases this repository has cut, oldest first: each is tagged `v<version>` at its commit, and the commit is
 * written here too, so that a clone without tags still finds "the previous release" (docs/deployment.md, "Releases
 * and migrations").
 */
export const RELEASES = [{ version: '1.0.0-beta.1', commit: 'c9bf5743336320458dd713982089becbcece0cdd' }] as const;

/** The newest release cut: what instances still run while this code rolls out. */
export const PREVIOUS_RELEASE = RELEASES[RELEASES.length - 1]!;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Whether this checkout's git history holds `release`'s commit (not in a copy of the files alone). */
export function releaseAvailable(release = PREVIOUS_RELEASE): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${release.commit}^{commit}`], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The previous release's files, unpacked from git into `dir` (its own package.json and sources) and run with this
 * checkout's dependencies (a release's dependencies are a subset of a later one's, or the test says which is missing).
 */
export function unpackRelease(dir: string, release = PREVIOUS_RELEASE): string {
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', release.commit], {
    cwd: ROOT,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
