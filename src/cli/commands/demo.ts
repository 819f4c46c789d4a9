import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { openDatabase, type Database } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { runServer } from '../../run-server.js';
import type { Command } from '../command.js';
import { demoRedirectUris } from '../../demo/demo-generator.js';
import { printDemo, seedDemo, type DemoCredentials } from './seed-demo.js';

/** The scopes the getting-started walk's examples use: reading the profile, writing posts, jobs and events, and permissions. */
export const WALKTHROUGH_SCOPES = 'profile email post:write job:write event:write company:manage:read';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Start the service with demo data: the SQLite database of DATA_DIR as the last run left it, or a fresh one',
  usage: 'demo [--fresh]',
  options: { fresh: { type: 'boolean' } },
  async run(values, { io, config }) {
    if (config.databaseKind !== 'sqlite') {
      throw new Error(
        'npm run demo uses the embedded SQLite database; unset DATABASE_URL (or point it at a SQLite file).',
      );
    }
    const file = path.join(config.dataDir, 'demo-credentials.json');
    const kept = values.fresh === true ? null : await keptDemo(config, file);
    if (values.fresh === true) io.out(`Starting over (--fresh): ${config.databaseUrl} is replaced by fresh demo data.`);
    let database: Database;
    let demo: DemoCredentials;
    if (kept) {
      ({ database, demo } = kept);
      io.out(
        `Keeping the demo data of ${config.databaseUrl} as the last run left it (apps, keys and webhooks made in the console stay); \`npm run demo -- --fresh\` starts over.`,
      );
    } else {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${config.databaseUrl}${suffix}`, { force: true });
      database = openDatabase({ kind: 'sqlite', url: config.databaseUrl });
      await migrateToLatest(database);
      demo = (await seedDemo(database, config, Date.now())).credentials;
    }
    // A sign-in link ready to open: the callback page then prints a complete token request.
    const walkthrough = {
      state: randomBytes(9).toString('base64url'),
      verifier: randomBytes(48).toString('base64url'),
    };
    const challenge = createHash('sha256').update(walkthrough.verifier).digest('base64url');
    await runServer(config, database, {
      demoCallback: { clientId: demo.client.clientId, clientSecret: demo.client.clientSecret, walkthrough },
    });
    printDemo(io, config, demo, file);
    const authorize = new URL('/oauth/authorize', config.publicBaseUrl);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: demo.client.clientId,
      redirect_uri: demo.client.redirectUri,
      scope: WALKTHROUGH_SCOPES,
      state: walkthrough.state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    io.out(`  Act for the demo user: open this, sign in as ${demo.user.email} / ${demo.user.password}, allow,`);
    io.out('  and run the curl command the callback page shows (its verifier is filled in):');
    io.out(`  ${authorize.toString()}`);
    io.out('');
    io.out(`Serving on ${config.publicBaseUrl} — press Ctrl+C to stop.`);
    // The server keeps the process alive; close-with-grace stops it on SIGINT/SIGTERM.
    await new Promise<void>(() => undefined);
  },
};

/**
 * The demo a previous run left in DATA_DIR, migrated to this version, when there is one: its database holds data and
 * its credentials file is there. Served at another address than last time, its callback and the reference page's
 * redirect move with it. Null when there is none (or the file is not a database this version opens): a fresh one.
 */
async function keptDemo(config: Config, file: string): Promise<{ database: Database; demo: DemoCredentials } | null> {
  if (!fs.existsSync(config.databaseUrl) || !fs.existsSync(file)) return null;
  let database: Database | null = null;
  try {
    const demo = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials;
    if (typeof demo.apiKey !== 'string' || typeof demo.examples !== 'object' || demo.examples === null) return null;
    database = openDatabase({ kind: 'sqlite', url: config.databaseUrl });
    await migrateToLatest(database);
    if (!(await database.db.selectFrom('users').select('id').limit(1).executeTakeFirst())) throw new Error('no data');
    if (demo.apiUrl !== config.publicBaseUrl) {
      await database.db
        .updateTable('oauth_clients')
        .set({ redirect_uris: JSON.stringify(demoRedirectUris(config.publicBaseUrl)) })
        .where('client_id', '=', demo.client.clientId)
        .execute();
      demo.apiUrl = config.publicBaseUrl;
      demo.client = { ...demo.client, redirectUri: `${config.publicBaseUrl}/callback` };
      fs.writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
    }
    return { database, demo };
  } catch {
    await database?.close().catch(() => undefined);
    return null;
  }
}
