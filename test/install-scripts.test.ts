/**
 * What `npm install` runs besides unpacking: every package of the lock file that carries an install script is
 * reviewed in package.json's `allowScripts` (npm skips the scripts of any package not allowed there), and each one
 * allowed is allowed for a reason written here. A new dependency that would build or download at install fails this
 * test until someone decides it must.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The packages whose install scripts run, and why the service cannot do without them. */
const ALLOWED: Record<string, string> = {
  'better-sqlite3':
    'the embedded engine: downloads a prebuilt binary where GitHub releases are reachable, else compiles SQLite',
  roaring: 'the search index bitmaps (CRoaring): downloads a prebuilt binary where it can, else compiles CRoaring',
  argon2: 'password hashing: loads the prebuilt binary the package ships (no compile on linux-x64, darwin, win32)',
  esbuild: 'the test runner’s bundler (dev only): checks its platform binary, which comes as an npm package',
};

const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};
const allowScripts = (JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> }).allowScripts;
const withScripts = [
  ...new Set(
    Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([at]) => at.slice(at.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  ),
].sort();

describe('install scripts', () => {
  it('are each reviewed in allowScripts, allowed or denied', () => {
    expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
  });

  it('run only for the packages that must build or fetch a binary', () => {
    const allowed = Object.entries(allowScripts)
      .filter(([, on]) => on)
      .map(([name]) => name)
      .sort();
    expect(allowed).toEqual(Object.keys(ALLOWED).sort());
  });

  it('name no package the lock file no longer holds', () => {
    expect(Object.keys(allowScripts).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it('that compile where no prebuilt binary comes are the ones docs/development.md’s install time names', () => {
    const tests = read('docs/development.md').slice(read('docs/development.md').indexOf('## Tests'));
    const installNote = tests.slice(0, tests.indexOf('\n\n', tests.indexOf('npm install')));
    for (const compiled of ['better-sqlite3', 'CRoaring']) expect(installNote).toContain(compiled);
  });
});
