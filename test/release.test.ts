/**
 * One version everywhere: package.json's, the newest release in CHANGELOG.md (with its date), `/healthz`'s (with the
 * commit) and `/openapi.json`'s; every release section dated, and a "Breaking" heading, when there is one, first in its section.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers/test-app.js';

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const changelog = fs.readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
/** The release sections: `## 1.0.0-beta.1 — 2026-12-01` and what is under each. */
const releases = [...changelog.matchAll(/^## (\S+) — (\d{4}-\d{2}-\d{2})\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map(
  ([, version, date, body]) => ({ version: version!, date: date!, body: body! }),
);

describe('the release', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is a semantic version, the newest release in the CHANGELOG, dated, after "Unreleased"', () => {
    expect(pkg.version).toMatch(SEMVER);
    expect(releases.length).toBeGreaterThan(0);
    expect(releases[0]!.version).toBe(pkg.version);
    expect(changelog.indexOf('## Unreleased')).toBeLessThan(changelog.indexOf(`## ${pkg.version} — `));
    for (const release of releases) {
      expect(release.version).toMatch(SEMVER);
      expect(Number.isNaN(Date.parse(release.date)), release.version).toBe(false);
      // A release's "Breaking" heading, when it has one, comes before everything else it lists.
      const headings = [...release.body.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
      if (headings.includes('Breaking')) expect(headings[0], release.version).toBe('Breaking');
    }
  });

  it('is what /healthz and /openapi.json say runs, /healthz with the commit of the code', async () => {
    const health = (await t.app.inject({ method: 'GET', url: '/healthz' })).json();
    expect(health.version).toBe(pkg.version);
    // The checkout's commit; `unknown` where the tests run from files without their git history.
    let commit = 'unknown';
    try {
      commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
        cwd: import.meta.dirname,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      // No git here.
    }
    expect(health.commit).toBe(commit);
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().info.version).toBe(pkg.version);
  });
});
