/**
 * `npm run examples:record`: the response examples of the reference (/docs, /openapi.json), as the demo answers them.
 * Starts the service in this process on a fresh demo database, asks each GET operation an app key may call (ids from
 * the demo), and keeps each 200 body (a page cut to its first two items) in src/openapi/recorded-examples.ts by operationId.
 * The document takes them in place of examples made from the schemas; test/openapi-examples.test.ts holds every one
 * to its operation's schema. Run it again when the demo data or a response shape changes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { MIN_PASSWORD_COST } from '../src/shared/passwords.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-examples-'));
const base = 'https://api.example.com';
const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'examples.sqlite') });
await migrateToLatest(database);
// A fixed moment, so that the examples' dates do not move from one recording to the next.
const now = Date.parse('2026-12-01T09:00:00Z');
const demo = await generateDemoData(database, { now, publicBaseUrl: base, passwordCost: MIN_PASSWORD_COST });
const config = loadConfig({
  DATA_DIR: dir,
  PUBLIC_BASE_URL: base,
  LOG_LEVEL: 'silent',
  SIGNING_KEY_SECRET: 'examples-only-signing-secret-0123456789',
});
const app = await buildApp({ config, database, clock: () => now, logger: false });
await app.ready();

/** The query of an operation that needs one beyond a page size. */
const queries: Record<string, string> = {
  suggestJobSearches: '?prefix=back&pageSize=3',
  suggestCompanies: '?prefix=%EB%8D%B0&pageSize=3',
  searchCompanies: '?sort=HIRING_DESC&pageSize=2',
  suggestProfileSkills: '?prefix=t&pageSize=3',
  searchProfiles: '?sort=RECENT&pageSize=2',
};
const ids: Record<string, string> = {
  postId: String(demo.posts.withImages),
  jobId: String(demo.jobs.hiring),
  eventId: demo.events.first,
  companyId: 'data-bridge',
  handle: 'member-01',
};
const cut = (body: unknown): unknown => {
  if (body && typeof body === 'object' && Array.isArray((body as { items?: unknown[] }).items)) {
    return { ...(body as object), items: (body as { items: unknown[] }).items.slice(0, 2) };
  }
  return Array.isArray(body) ? body.slice(0, 6) : body;
};

const doc = app.swagger() as unknown as {
  paths: Record<string, Record<string, { operationId?: string; security?: Record<string, unknown>[] }>>;
};
const examples: Record<string, unknown> = {};
for (const [template, item] of Object.entries(doc.paths)) {
  const operation = item.get;
  if (!operation?.operationId || !template.startsWith('/api/v1/') || !operation.security?.some((s) => 'apiKey' in s))
    continue;
  const url =
    template.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? name) +
    (queries[operation.operationId] ?? (template.endsWith('s') && !template.includes('{') ? '?pageSize=2' : ''));
  const res = await app.inject({
    method: 'GET',
    url,
    headers: { 'x-svc-api-key': demo.apiKey, 'accept-language': 'en' },
  });
  if (res.statusCode !== 200)
    throw new Error(`${operation.operationId} (${url}) answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  examples[operation.operationId] = cut(res.json());
}
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
const out = path.join(ROOT, 'src/openapi/recorded-examples.ts');
fs.writeFileSync(
  out,
  `/** Written by \`npm run examples:record\` (scripts/record-examples.ts): the demo's answers, by operationId. */\n` +
    `export const RECORDED_EXAMPLES: Record<string, unknown> = ${JSON.stringify(examples, null, 2)};\n`,
);
process.stdout.write(`wrote ${path.relative(ROOT, out)}: ${Object.keys(examples).length} operations\n`);
