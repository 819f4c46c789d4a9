/**
 * Whether `dist/` is the build of the sources beside it. `npm run build` compiles, then writes `dist/build-stamp.json`
 * with a digest of what it compiled (every file under `src/`, and the TypeScript settings); `npm start` runs `dist/`
 * as it is, without compiling, and refuses to start a build whose sources have changed since. A deployment that
 * ships `dist/` without `src/` has nothing to compare and starts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const STAMP = 'build-stamp.json';
const SETTINGS = ['tsconfig.json', 'tsconfig.build.json'];

/** A digest of the sources a build is made from, under the project's root. */
export function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push(path.relative(root, full));
    }
  };
  walk(path.join(root, 'src'));
  for (const file of [...files.sort(), ...SETTINGS.filter((name) => fs.existsSync(path.join(root, name)))]) {
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The git commit checked out at `dir` (12 hex digits), or null where it is no git checkout. */
function checkedOutCommit(dir: string): string | null {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

/** Written by `npm run build` after compiling: the sources' digest and the commit they are. */
export function writeStamp(root: string): void {
  fs.writeFileSync(
    path.join(root, 'dist', STAMP),
    `${JSON.stringify({ sources: sourceDigest(root), commit: checkedOutCommit(root), builtAt: new Date().toISOString() })}\n`,
  );
}

/**
 * The commit the running code is: compiled, the one `npm run build` recorded beside it; run from the sources, the
 * checkout's; `unknown` where neither says (a build copied without its stamp, sources without git).
 */
export function runningCommit(moduleDir: string): string {
  try {
    const stamped = (JSON.parse(fs.readFileSync(path.join(moduleDir, STAMP), 'utf8')) as { commit?: string }).commit;
    if (stamped) return stamped;
  } catch {
    // Not a build: the sources.
  }
  return checkedOutCommit(moduleDir) ?? 'unknown';
}

/**
 * Why the build in `distDir` must not start (null: it may): sources beside it that differ from the ones it was built
 * from, or no stamp to say which they were.
 */
export function staleBuild(distDir: string): string | null {
  const root = path.dirname(distDir);
  if (!fs.existsSync(path.join(root, 'src'))) return null;
  let built: string | undefined;
  try {
    built = (JSON.parse(fs.readFileSync(path.join(distDir, STAMP), 'utf8')) as { sources?: string }).sources;
  } catch {
    return `dist/ has no ${STAMP}: it was not made by \`npm run build\`. Run \`npm run build\`, then start again.`;
  }
  return built === sourceDigest(root)
    ? null
    : 'The sources in src/ changed since dist/ was built. Run `npm run build`, then start again.';
}
