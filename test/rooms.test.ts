import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const read = (file: string) => fs.readFileSync(path.resolve(file), 'utf8');
const filesUnder = (dir: string) =>
  fs
    .readdirSync(path.resolve(dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
/** Kysely's statement builders and raw SQL: what a file that holds no SQL never calls. */
const SQL = /\.(selectFrom|updateTable|insertInto|deleteFrom)\(|\bsql[`<.]/;

describe('one room per concern (docs/architecture.md)', () => {
  it('the webhook dispatcher is the loop alone: its SQL is in the delivery repository, its schedule in the retry policy', () => {
    expect(SQL.test(read('src/modules/webhooks/dispatcher.ts'))).toBe(false);
    expect(SQL.test(read('src/modules/webhooks/delivery-repository.ts'))).toBe(true);
    expect(read('src/modules/webhooks/dispatcher.ts')).toMatch(/from '\.\/retry-policy\.js'/);
  });

  it('no type escape in the webhooks area', () => {
    expect(filesUnder('src/modules/webhooks').filter((file) => /\bas never\b|\bas any\b/.test(read(file)))).toEqual([]);
  });

  it('the search engine knows documents, fields and orders: it reads no table of a resource and imports no area', () => {
    const engine = filesUnder('src/search');
    expect(
      engine.filter((file) =>
        /selectFrom\('(posts|post_\w+|jobs|job_\w+|events|event_\w+|companies)'/.test(read(file)),
      ),
    ).toEqual([]);
    expect(engine.filter((file) => /from '\.\.\/modules\//.test(read(file)))).toEqual([]);
    // What a resource searches is declared with it, and its rows come from its search repository: no index runs SQL.
    for (const resource of ['post', 'job', 'event']) {
      const index = `src/modules/${resource}s/${resource}-index.ts`;
      expect(read(index), index).toMatch(/: Declaration<\w+> = \{/);
      expect(read(index), index).not.toMatch(/selectFrom\(|\.execute\(|sql`/);
      expect(read(`src/modules/${resource}s/${resource}-search-repository.ts`)).toMatch(/: ItemSource \{/);
    }
  });

  it("each hand-written read is written once: no engine's own functions, parameters or pairs of texts in a reads file", () => {
    const reads = [...filesUnder('src/modules'), ...filesUnder('src/cache')].filter((file) =>
      /-reads\.ts$|data-version\.ts$/.test(file),
    );
    expect(reads.length).toBeGreaterThanOrEqual(4);
    const engineText = /json_group_array|json_agg|json_each|json_build|unnest\(|\$\d|\?\d|\bsqlite:|\bpostgres:/;
    expect(reads.filter((file) => engineText.test(read(file)))).toEqual([]);
  });

  it('a migration is frozen the day it is written: it imports no live code and reads no clock of its own', () => {
    const migrations = fs.readdirSync(path.resolve('src/db/migrations')).filter((f) => /^\d{4}-.*\.ts$/.test(f));
    const ownImports = /from '(\.[^']+)'/g;
    const frozen =
      /^(\.\.\/schema\.js|\.\.\/dialects\/dialect-adapter\.js|\.\.\/\.\.\/shared\/catalogs-\d{4}-\d{2}-\d{2}\.js)$/;
    const live = migrations.flatMap((file) =>
      [...read(`src/db/migrations/${file}`).matchAll(ownImports)]
        .map((m) => m[1]!)
        .filter((specifier) => !frozen.test(specifier))
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(live).toEqual([]);
    expect(migrations.filter((file) => /Date\.now\(/.test(read(`src/db/migrations/${file}`)))).toEqual([]);
    // The dated catalogs a migration writes never change: a change is a new dated file and a new migration.
    expect(
      createHash('sha256')
        .update(fs.readFileSync(path.resolve('src/shared/catalogs-2026-11-28.ts')))
        .digest('hex'),
    ).toBe('4283cebdd25b4dbe53399c6f52af0484a493d46e50df6261a1e1a67e73a3816d');
  });

  it('the performance reference describes today', () => {
    // The dated record of measurements lives in bench/results/, not in the reference.
    expect(read('docs/performance.md').split('\n').length).toBeLessThanOrEqual(400);
  });
});
