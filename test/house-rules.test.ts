/**
 * Habits of the tree that no behaviour test would miss if they were lost: values computed from versioned data are
 * kept by the one versioned cache, the suite waits on events or a controlled clock rather than on real time, and
 * what the benchmarks and scripts share with the tests lives in support/, not in test/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
}
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/**
 * The real waits of the suite: a fixed sleep, or a promise resolved by a timer. Each one left was read and is a poll,
 * a quiet window (proving nothing more arrives), a paced load of a drill, or a real clock a server process keeps
 * (docs/development.md, "Waiting in tests"). A new one needs the same reading: the number below is raised only with
 * its reason written there.
 */
const MOST_REAL_WAITS = 40;
const REAL_WAIT = /\bsleep\(|setTimeout\(r/g;

describe('house rules', () => {
  it('keeps values computed from versioned data in the one versioned cache', () => {
    const caching = filesUnder('src').filter((file) => {
      const text = read(file);
      return /from 'lru-cache'/.test(text) && /data-version\.js'|\bdataVersion\b|\bDataVersion\b/.test(text);
    });
    expect(caching, 'use VersionedCache (src/cache/versioned-cache.ts) for a cache keyed by the data version').toEqual(
      [],
    );
  });

  it('keeps the benchmarks and scripts off the test helpers (what both need lives in support/)', () => {
    const reaching = ['bench', 'scripts', 'support'].flatMap((dir) =>
      filesUnder(dir).filter((file) => /from '(\.\.\/)+test\//.test(read(file))),
    );
    expect(reaching).toEqual([]);
  });

  it('does not add real waits to the suite', () => {
    const waits = filesUnder('test').flatMap((file) =>
      [...read(file).matchAll(REAL_WAIT)].map((match) => `${file}: ${match[0]}`),
    );
    expect(waits.length, waits.join('\n')).toBeGreaterThan(0);
    expect(
      waits.length,
      'wait on an event or move the test clock; a real wait that must stay is counted above',
    ).toBeLessThanOrEqual(MOST_REAL_WAITS);
  });
});
