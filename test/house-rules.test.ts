/**
 * Habits of the tree that no behaviour test would miss if they were lost: values computed from versioned data are
 * kept by the one versioned cache, the suite waits on events or a controlled clock rather than on real time (the
 * linter's rule, shown here to hold), and what the benchmarks and scripts share with the tests lives in support/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
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

  it('has the linter refuse a real wait written outside test/helpers/real-time.ts', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const lint = async (file: string, text: string) =>
      (await eslint.lintText(text, { filePath: path.join(ROOT, file) }))[0]!.messages.map((m) => m.ruleId);
    const planted = 'export const wait = () => new Promise((resolve) => setTimeout(resolve, 100));\n';
    expect(await lint('test/planted.test.ts', planted)).toEqual(['no-restricted-syntax']);
    expect(await lint('test/helpers/real-time.ts', planted)).toEqual([]);
  });
});
