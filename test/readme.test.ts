import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toListDateTime, toUtcIso } from '../src/shared/time.js';
import { CATALOG_DATA, CATALOG_NAMES } from '../src/shared/catalog-data.js';
import { CODE_RENAMES } from '../src/db/migrations/2026-11-25-019-real-service-codes.js';
import { DEMO_API_KEY, DEMO_CLIENT, DEMO_COMPANY, DEMO_USER } from '../src/demo/demo-generator.js';

const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('starts with the two-line quick start', () => {
    const block = /## Quick start\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block?.trim().split('\n')).toEqual(['npm install && npm run demo', 'npm test']);
  });

  it('lists the real demo credentials', () => {
    expect(readme).toContain(DEMO_API_KEY);
    expect(readme).toContain(DEMO_USER.email);
    expect(readme).toContain(DEMO_USER.password);
    expect(readme).toContain(DEMO_COMPANY);
    expect(readme).toContain(DEMO_CLIENT.clientId);
    expect(readme).toContain(DEMO_CLIENT.clientSecret);
    expect(readme).toContain(DEMO_CLIENT.redirectUri);
  });

  it('is a front door: what it is, the two commands, the credentials, and an index of the docs, in at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    for (const doc of fs.readdirSync(new URL('../docs', import.meta.url)).filter((f) => f.endsWith('.md')))
      expect(readme, doc).toContain(`(docs/${doc})`);
  });

  it("has the walk through the API show a list time and a detail time in the forms the service prints, and the catalogs' codes (issue 23)", () => {
    const walk = fs.readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8');
    const end = Date.parse('2026-12-24T14:59:59.999Z');
    expect(walk).toContain(`"endAt": "${toListDateTime(end)}"`);
    expect(walk).toContain(`"endAt": "${toUtcIso(end)}"`);
    expect(walk).toContain('dev, dataAi');
    const api = fs.readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
    expect(api).toContain(`"${toListDateTime(Date.parse('2026-08-23T15:00:00Z'))}"`);
    expect(api).toContain(`"${toListDateTime(Date.parse('2026-05-30T14:59:30Z'))}"`);
    // docs/api.md lists every code of every catalog, and the whole old → new table of migration 019.
    for (const catalog of CATALOG_NAMES)
      for (const [code] of CATALOG_DATA[catalog]) expect(api, `${catalog} ${code}`).toContain(`\`${code}\``);
    for (const renames of Object.values(CODE_RENAMES))
      for (const [from, to] of Object.entries(renames)) {
        expect(api, from).toContain(`\`${from}\``);
        expect(api, to).toContain(`\`${to}\``);
      }
  });
});
