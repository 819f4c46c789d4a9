import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { openDatabase } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrate.js';
import { runServer } from '../../run-server.js';
import type { Command } from '../command.js';
import { printDemo, seedDemo } from './seed-demo.js';

/** The scopes the README's examples use: reading the profile, writing posts, jobs and events, and permissions. */
export const WALKTHROUGH_SCOPES = 'profile email post:write job:write event:write company:manage:read';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'Start the service on a fresh SQLite database with demo data',
  usage: 'demo',
  options: {},
  async run(_values, { io, config }) {
    if (config.databaseKind !== 'sqlite') {
      throw new Error('npm run demo uses the embedded SQLite database; unset DATABASE_URL (or point it at a SQLite file).');
    }
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${config.databaseUrl}${suffix}`, { force: true });
    const database = openDatabase({ kind: 'sqlite', url: config.databaseUrl });
    await migrateToLatest(database);
    const { manifest, file } = await seedDemo(database, config, Date.now());
    // A sign-in link ready to open: the callback page then prints a complete token request.
    const walkthrough = { state: randomBytes(9).toString('base64url'), verifier: randomBytes(48).toString('base64url') };
    const challenge = createHash('sha256').update(walkthrough.verifier).digest('base64url');
    await runServer(config, database, { demoCallback: { clientId: manifest.client.clientId, clientSecret: manifest.client.clientSecret, walkthrough } });
    printDemo(io, config, manifest, file);
    const authorize = new URL('/oauth/authorize', config.publicBaseUrl);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: manifest.client.clientId, redirect_uri: manifest.client.redirectUri, scope: WALKTHROUGH_SCOPES,
      state: walkthrough.state, code_challenge: challenge, code_challenge_method: 'S256',
    }).toString();
    io.out(`  Act for the demo user: open this, sign in as ${manifest.user.email} / ${manifest.user.password}, allow,`);
    io.out('  and run the curl command the callback page shows (its verifier is filled in):');
    io.out(`  ${authorize.toString()}`);
    io.out('');
    io.out(`Serving on ${config.publicBaseUrl} — press Ctrl+C to stop.`);
    // The server keeps the process alive; close-with-grace stops it on SIGINT/SIGTERM.
    await new Promise<void>(() => undefined);
  },
};
