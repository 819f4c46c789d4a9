/** `.env.example` is current: what `npm run env:example` writes from the README's settings table, which names every setting src/config.ts reads. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envExample } from '../scripts/env-example.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('.env.example', () => {
  it('is what npm run env:example writes', () => {
    expect(fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8')).toBe(envExample(readme));
  });

  it('names every setting the service reads, each once', () => {
    const config = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
    const read = new Set([...config.matchAll(/\b(?:read|int|bool|httpUrl|enabled|list|number)\('([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!));
    const listed = [...fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8').matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...read].filter((name) => !listed.includes(name))).toEqual([]);
  });
});
