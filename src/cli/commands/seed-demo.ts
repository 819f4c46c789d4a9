import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { generateDemoData, type DemoManifest } from '../../demo/demo-generator.js';
import { writeDemoMedia } from '../../demo/demo-media.js';
import { mediaStoreFor } from '../../media/media-store-factory.js';
import type { Command, Io } from '../command.js';

/** What DATA_DIR/demo-credentials.json holds: the demo's credentials, where it serves, and the ids its examples read. */
export interface DemoCredentials {
  apiKey: string;
  user: { email: string; password: string };
  client: { clientId: string; clientSecret: string; redirectUri: string; scopes: string[] };
  companyId: string;
  /** The address the demo serves on (`changes listen` goes there when given no `--api-url`). */
  apiUrl: string;
  examples: { postWithImages: number; translatedPost: number; hiringJob: number; event: string };
}

/** Seeds demo data into an empty database and writes DATA_DIR/demo-credentials.json. */
export async function seedDemo(
  database: Database,
  config: Config,
  now: number,
): Promise<{ manifest: DemoManifest; credentials: DemoCredentials; file: string }> {
  const existing = await database.db.selectFrom('users').select('id').limit(1).execute();
  if (existing.length > 0)
    throw new Error(
      'The database already holds data; seed-demo needs an empty database (npm run demo starts from a fresh one).',
    );
  const manifest = await generateDemoData(database, {
    now,
    publicBaseUrl: config.publicBaseUrl,
    passwordCost: config.passwordCost,
  });
  await writeDemoMedia(database, mediaStoreFor(config, database));
  const credentials: DemoCredentials = {
    apiKey: manifest.apiKey,
    user: { email: manifest.user.email, password: manifest.user.password },
    client: manifest.client,
    companyId: manifest.companyId,
    apiUrl: config.publicBaseUrl,
    examples: {
      postWithImages: manifest.posts.withImages,
      translatedPost: manifest.posts.translated,
      hiringJob: manifest.jobs.hiring,
      event: manifest.events.first,
    },
  };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'demo-credentials.json');
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return { manifest, credentials, file };
}

export function printDemo(io: Io, config: Config, demo: DemoCredentials, file: string): void {
  const base = config.publicBaseUrl;
  io.out('');
  io.out('Demo data is ready.');
  io.out(`  App key (X-SVC-API-Key): ${demo.apiKey}`);
  io.out(`  Demo user:               ${demo.user.email} / ${demo.user.password}`);
  io.out(`  OAuth client:            ${demo.client.clientId} / ${demo.client.clientSecret}`);
  io.out(`  Redirect URI:            ${demo.client.redirectUri}`);
  io.out(`  Demo company:            ${demo.companyId} (the demo user is RECRUITER and EVENT_MANAGER there)`);
  io.out(`  Credentials file:        ${file}`);
  io.out('');
  io.out(`  API reference:  ${base}/docs   (Authorize: ${demo.client.clientId}, with PKCE)`);
  io.out(`  OpenAPI:        ${base}/openapi.json`);
  io.out(`  Health:         ${base}/readyz`);
  io.out(
    `  Console mail:   ${config.mail.smtpUrl ? 'sent over SMTP_URL' : `written to ${config.dataDir}/outbox/ as .eml and readable .txt (password resets, address confirmations; SMTP_URL sends it)`}`,
  );
  const curl = (path: string, language?: string) =>
    `curl -H 'X-SVC-API-Key: ${demo.apiKey}'${language ? ` -H 'Accept-Language: ${language}'` : ''} '${base}${path}'`;
  io.out(`  Search jobs:    ${curl('/api/v1/jobs?keyword=backend')}`);
  io.out(`  A post:         ${curl(`/api/v1/posts/${demo.examples.postWithImages}`)}`);
  io.out(`  In English:     ${curl(`/api/v1/posts/${demo.examples.translatedPost}`, 'en')}`);
  io.out(`  A job:          ${curl(`/api/v1/jobs/${demo.examples.hiringJob}`)}`);
  io.out(`  An event:       ${curl(`/api/v1/events/${demo.examples.event}`)}`);
  io.out('');
}

export const seedDemoCommand: Command = {
  name: 'seed-demo',
  summary: 'Fill an empty database with the deterministic demo data',
  usage: 'seed-demo',
  options: {},
  async run(_values, ctx) {
    const database = await ctx.database();
    const { credentials, file } = await seedDemo(database, ctx.config, Date.now());
    printDemo(ctx.io, ctx.config, credentials, file);
  },
};
