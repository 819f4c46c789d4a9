/**
 * `npm run release:queries`: writes down what this release reads and writes, for the migration check
 * (test/migration-compat.test.ts). Runs the fast tier with the query recorder on (test/helpers/query-recorder.ts),
 * on SQLite and, with TEST_DATABASE_URL, on PostgreSQL, and keeps each distinct data statement with up to two sets of
 * parameters in test/fixtures/release-queries/<version>.jsonl, under a first line naming the release and its last
 * migration. Run it when a release is cut; commit the file with the release.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { allMigrations } from '../src/db/migrations/index.js';
import { sqliteAdapter } from '../src/db/dialects/sqlite-adapter.js';

const root = path.resolve(import.meta.dirname, '..');
const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
// `--from FOLDER`: what an earlier run recorded there, instead of a new run.
const from = process.argv.indexOf('--from') > 0 ? process.argv[process.argv.indexOf('--from') + 1] : undefined;
const folder = from ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-release-queries-'));
// The check itself (test/migration-compat.test.ts) stands aside while a recording is made.
const run = from
  ? { status: 0 }
  : spawnSync('npx', ['vitest', 'run', '--project', 'fast'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, RECORD_RELEASE_QUERIES: folder },
    });
if (run.status !== 0) {
  fs.rmSync(folder, { recursive: true, force: true });
  console.error('The fast tier failed: nothing was written (a release is recorded from a passing suite).');
  process.exit(1);
}
/** Statements with more parameters than this are left out; texts are kept to 200 characters, two sets per statement. */
const MOST_PARAMS = 100;
const kept = new Map<string, { engine: string; sql: string; params: unknown[][] }>();
for (const file of fs.readdirSync(folder)) {
  for (const line of fs.readFileSync(path.join(folder, file), 'utf8').split('\n').filter(Boolean)) {
    const { engine, sql, params } = JSON.parse(line) as { engine: string; sql: string; params: unknown[] };
    // Bulk inserts (the demo's, the benchmark's) are the one-row inserts of the same table many times over.
    if (params.length > MOST_PARAMS) continue;
    const key = `${engine}\0${sql}`;
    const entry = kept.get(key) ?? kept.set(key, { engine, sql, params: [] }).get(key)!;
    const shortened = params.map((p) => (typeof p === 'string' && p.length > 200 ? p.slice(0, 200) : p));
    if (entry.params.length < 2 && !entry.params.some((p) => JSON.stringify(p) === JSON.stringify(shortened)))
      entry.params.push(shortened);
  }
}
fs.rmSync(folder, { recursive: true, force: true });
const migrations = Object.keys(allMigrations(sqliteAdapter)).sort();
const out = path.join(root, 'test/fixtures/release-queries', `${version}.jsonl`);
fs.mkdirSync(path.dirname(out), { recursive: true });
const entries = [...kept.values()].sort((a, b) => (a.engine + a.sql).localeCompare(b.engine + b.sql));
fs.writeFileSync(
  out,
  [
    JSON.stringify({ release: version, lastMigration: migrations.at(-1) }),
    ...entries.map((e) => JSON.stringify(e)),
  ].join('\n') + '\n',
);
const by = (engine: string) => entries.filter((e) => e.engine === engine).length;
process.stdout.write(
  `wrote ${path.relative(root, out)}: ${by('sqlite')} SQLite and ${by('postgres')} PostgreSQL statements\n`,
);
