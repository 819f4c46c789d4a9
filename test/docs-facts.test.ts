/**
 * What the docs say of the code, checked against the code: the credential prefixes their examples use, the npm scripts
 * and CLI commands they name, the settings they name, the SDK version the SDK's README installs, the architecture's tree
 * of folders and its areas, and every relative link (to a file, and to a heading in it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';
import { SETTINGS } from '../src/settings.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = [
  'README.md',
  'CHANGELOG.md',
  'sdk/README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const SOURCES = (function walk(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
})('src')
  .map(read)
  .join('\n');

/** The source of the service, its tests and its scripts, as one text. */
const CODE = [
  SOURCES,
  ...['test', 'scripts'].flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => read(`${dir}/${f}`)),
  ),
].join('\n');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('the docs against the code', () => {
  it('show credentials only with the prefixes the service gives them', () => {
    // Every `svc…_` token that looks like a credential (followed by a key's characters or an ellipsis).
    const issued = new Set([...SOURCES.matchAll(/`(svc[a-z]_)\$\{/g)].map((m) => m[1]).concat(['svcc_']));
    for (const file of DOCS) {
      for (const [, prefix] of read(file).matchAll(/\b(svc[a-z]*_)(?=[A-Za-z0-9]{4,}|…)/g)) {
        if (['svc_session', 'svc_csrf', 'svc_revocations', 'svc_build'].some((name) => name.startsWith(prefix!)))
          continue;
        expect(issued, `${file}: ${prefix}`).toContain(prefix);
      }
    }
  });

  it('name only npm scripts package.json has and CLI commands the CLI has', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const commands = COMMANDS.map((c) => c.name);
    for (const file of DOCS) {
      const text = read(file);
      for (const [, script] of text.matchAll(/npm run ([a-z][a-z:-]*)/g)) {
        if (file === 'sdk/README.md' || file === 'CHANGELOG.md') continue;
        expect(scripts, `${file}: npm run ${script}`).toContain(script);
      }
      for (const [, words] of text.matchAll(/npm run cli -- ([a-z][a-z -]*[a-z])/g)) {
        // A command, or a group's help (`apps --help`).
        const group = words!.split(' ')[0]!;
        expect(
          commands.some((name) => `${words} `.startsWith(`${name} `) || name.startsWith(`${group} `)),
          `${file}: npm run cli -- ${words}`,
        ).toBe(true);
      }
    }
  });

  it('name only settings the service reads', () => {
    // A backticked name that begins as the settings do (`DATABASE_…`, `RATE_LIMIT_…`) is one of them.
    const known = new Set(Object.keys(SETTINGS));
    const firstWords = new Set([...known].map((name) => name.split('_')[0]!));
    const unknown: string[] = [];
    for (const file of DOCS.filter((f) => f !== 'CHANGELOG.md')) {
      for (const [, name] of read(file).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)(?:=[^`]*)?`/g)) {
        if (!name!.includes('_') || !firstWords.has(name!.split('_')[0]!)) continue;
        // Not a setting, but a name the code has (a constant, a catalog code, a test's own variable): fine.
        if (!known.has(name!) && !CODE.includes(name!)) unknown.push(`${file}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it("draw the architecture's tree and areas from the folders under src/, and name each area's entry as it is", () => {
    const page = read('docs/architecture.md');
    const tree = page.slice(page.indexOf('## Where things are'), page.indexOf('## Layers'));
    const drawn = [...tree.matchAll(/^(src\/[\w-]+\/(?:[\w-]+\/)?)/gm)].map((m) => m[1]!).sort();
    const folders = (dir: string) =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => `${dir}/${e.name}/`);
    const areas = folders('src/modules');
    expect(drawn).toEqual([...folders('src'), ...areas].sort());
    const layers = page.slice(page.indexOf('## Layers'), page.indexOf('## Assembly'));
    const listed = layers.match(/│ +(accounts ·.*)$/m)![1]!.split(' · ');
    expect([...listed].sort()).toEqual(areas.map((a) => a.split('/')[2]!).sort());
    for (const area of areas) {
      const name = `${area.split('/')[2]!}Area`;
      expect(read(`${area}index.ts`), area).toMatch(new RegExp(`export (async )?function ${name}\\(`));
      expect(page, name).toContain(`\`${name}\``);
    }
  });

  it('install the SDK version the SDK is', () => {
    const { version } = JSON.parse(read('sdk/package.json')) as { version: string };
    for (const [, shown] of read('sdk/README.md').matchAll(/svc-open-api-sdk-(\d+\.\d+\.\d+)\.tgz/g))
      expect(shown).toBe(version);
  });

  it('link only to files that exist, and to headings they have', () => {
    for (const file of DOCS) {
      for (const [, target] of read(file).matchAll(/\]\(((?!https?:|mailto:|#)[^)\s]+)\)/g)) {
        const [where, hash] = target!.split('#');
        const resolved = path.resolve(path.dirname(path.join(ROOT, file)), where!);
        expect(fs.existsSync(resolved), `${file} → ${target}`).toBe(true);
        if (hash && resolved.endsWith('.md')) {
          const headings = [...fs.readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!));
          expect(headings, `${file} → ${target}`).toContain(hash);
        }
      }
    }
  });
});
