import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { generateDemoData, type DemoManifest } from '../../demo/demo-generator.js';
import { writeDemoMedia } from '../../demo/demo-media.js';
import { mediaStoreFor } from '../../media/media-store-factory.js';
import type { Command, Io } from '../command.js';

export interface DemoCredentials {
  apiKey: string;
  user: { email: string; password: string };
  client: { clientId: string; clientSecret: string; redirectUri: string; scopes: string[] };
  companyId: string;
}

/** Seeds demo data into an empty database and writes DATA_DIR/demo-credentials.json. */
export async function seedDemo(database: Database, config: Config, now: number): Promise<{ manifest: DemoManifest; credentials: DemoCredentials; file: string }> {
  const existing = await database.db.selectFrom('users').select('id').limit(1).execute();
  if (existing.length > 0) throw new Error('The database already holds data; seed-demo needs an empty database (npm run demo starts from a fresh one).');
  const manifest = await generateDemoData(database, { now, publicBaseUrl: config.publicBaseUrl, passwordCost: config.passwordCost });
  await writeDemoMedia(database, mediaStoreFor(config, database));
  const credentials: DemoCredentials = {
    apiKey: manifest.apiKey,
    user: { email: manifest.user.email, password: manifest.user.password },
    client: manifest.client,
    companyId: manifest.companyId,
  };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'demo-credentials.json');
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { manifest, credentials, file };
}

export function printDemo(io: Io, config: Config, manifest: DemoManifest, file: string): void {
  const base = config.publicBaseUrl;
  io.out('');
  io.out('Demo data is ready.');
  io.out(`  App key (X-SVC-API-Key): ${manifest.apiKey}`);
  io.out(`  Demo user:               ${manifest.user.email} / ${manifest.user.password}`);
  io.out(`  OAuth client:            ${manifest.client.clientId} / ${manifest.client.clientSecret}`);
  io.out(`  Redirect URI:            ${manifest.client.redirectUri}`);
  io.out(`  Demo company:            ${manifest.companyId} (the demo user is RECRUITER and EVENT_MANAGER there)`);
  io.out(`  Credentials file:        ${file}`);
  io.out('');
  io.out(`  API reference:  ${base}/docs   (Authorize: ${manifest.client.clientId}, with PKCE)`);
  io.out(`  OpenAPI:        ${base}/openapi.json`);
  io.out(`  Health:         ${base}/readyz`);
  io.out(`  Console mail:   ${config.mail.smtpUrl ? 'sent over SMTP_URL' : `written to ${config.dataDir}/outbox/ as .eml and readable .txt (password resets, address confirmations; SMTP_URL sends it)`}`);
  const curl = (path: string, language?: string) =>
    `curl -H 'X-SVC-API-Key: ${manifest.apiKey}'${language ? ` -H 'Accept-Language: ${language}'` : ''} '${base}${path}'`;
  io.out(`  Search jobs:    ${curl('/api/v1/jobs?keyword=backend')}`);
  io.out(`  A post:         ${curl(`/api/v1/posts/${manifest.posts.withImages}`)}`);
  io.out(`  In English:     ${curl(`/api/v1/posts/${manifest.posts.translated}`, 'en')}`);
  io.out(`  A job:          ${curl(`/api/v1/jobs/${manifest.jobs.hiring}`)}`);
  io.out(`  An event:       ${curl(`/api/v1/events/${manifest.events.first}`)}`);
  io.out('');
}

export const seedDemoCommand: Command = {
  name: 'seed-demo',
  summary: 'Fill an empty database with the deterministic demo data',
  usage: 'seed-demo',
  options: {},
  async run(_values, ctx) {
    const database = await ctx.database();
    const { manifest, file } = await seedDemo(database, ctx.config, Date.now());
    printDemo(ctx.io, ctx.config, manifest, file);
  },
};
