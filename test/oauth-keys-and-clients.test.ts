import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { openDatabase } from '../src/db/database.js';
import { keyEncryptionKey, SigningKeys } from '../src/modules/oauth/signing-keys.js';
import { createTestApp, TEST_NOW, type TestContext } from './helpers/test-app.js';
import { accessToken } from './helpers/tokens.js';

describe('signing keys', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const keys = () =>
    new SigningKeys(
      t.db.database.db,
      keyEncryptionKey(t.config.signingKeySecret, t.config.dataDir),
      () => t.clock.now,
      3600,
    );
  const jwks = async () =>
    (await t.app.inject({ method: 'GET', url: '/oauth/jwks' })).json().keys as Array<Record<string, string>>;

  it('are created on first start, published without private parts, and stored encrypted', async () => {
    const published = await jwks();
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(published[0]!.d).toBeUndefined();
    const rows = await t.db.database.db.selectFrom('oauth_signing_keys').selectAll().execute();
    expect(rows[0]!.private_key_encrypted).not.toContain('PRIVATE KEY');
    expect(rows[0]!.private_key_encrypted.split('.')).toHaveLength(3);
  });

  it('rotate: the new key is published before it signs, the old one stays published for a token lifetime', async () => {
    const store = keys();
    await store.init();
    const before = store.signingKey();
    const rotatedAt = TEST_NOW + 100_000;
    t.clock.now = rotatedAt;
    const newKid = await store.rotate();
    expect(newKid).not.toBe(before.kid);
    // Every instance publishes the new key within 10 s, while the old key still signs.
    t.clock.now = rotatedAt + 11_000;
    expect((await jwks()).map((k) => k.kid).sort()).toEqual([before.kid, newKid].sort());
    expect(store.signingKey().kid).toBe(before.kid);
    // From 30 s on the new key signs; tokens of the old key still verify.
    t.clock.now = rotatedAt + 31_000;
    expect(store.signingKey().kid).toBe(newKid);
    // The old key leaves the JWKS once every token it signed has expired.
    t.clock.now = rotatedAt + (60 + 3600 + 61) * 1000;
    expect((await jwks()).map((k) => k.kid)).toEqual([newKid]);
    t.clock.now = TEST_NOW;
  });

  it('issue tokens when the cached keys are stale, without waiting on the database inside the token transaction', async () => {
    // On SQLite the code exchange holds the only connection; a key reload awaited there would never finish.
    t.clock.now = TEST_NOW + 60_000;
    try {
      const started = Date.now();
      const token = await accessToken(t, 'profile');
      expect(token.split('.')).toHaveLength(3);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      t.clock.now = TEST_NOW;
    }
  }, 10_000);

  it('cannot be read with another encryption secret', async () => {
    const wrong = new SigningKeys(
      t.db.database.db,
      keyEncryptionKey('another-secret-that-is-long-enough-000', t.config.dataDir),
      () => t.clock.now,
      3600,
    );
    await expect(wrong.init()).rejects.toThrow();
  });
});

describe('client and key CLI', () => {
  let dir: string;
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (l: string) => {
      out.push(l);
    },
    err: (l: string) => {
      err.push(l);
    },
  };
  const run = (...argv: string[]) => runCli(argv, io, { DATA_DIR: dir, LOG_LEVEL: 'silent' });

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-oauth-cli-'));
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates confidential and public clients, lists them, rotates a secret, and rotates keys', async () => {
    expect(
      await run(
        'clients',
        'create',
        '--name',
        'Partner',
        '--redirect-uri',
        'https://partner.example/cb',
        '--redirect-uri',
        'http://127.0.0.1:3000/cb',
        '--scopes',
        'profile post:write',
      ),
    ).toBe(0);
    const clientId = /client (svcc_[0-9A-Za-z]{24})/.exec(out.join('\n'))?.[1];
    const secret = /svcs_[0-9A-Za-z]{32}/.exec(out.join('\n'))?.[0];
    expect(clientId).toBeDefined();
    expect(secret).toBeDefined();
    expect(
      await run(
        'clients',
        'create',
        '--name',
        'SPA',
        '--redirect-uri',
        'http://localhost:5173/cb',
        '--scopes',
        'profile',
        '--public',
      ),
    ).toBe(0);
    expect(out.join('\n')).toContain('Created public client');

    out.length = 0;
    expect(await run('clients', 'list')).toBe(0);
    expect(out.join('\n')).toContain(clientId!);
    expect(out.join('\n')).toContain('https://partner.example/cb http://127.0.0.1:3000/cb');
    expect(out.join('\n')).not.toContain(secret!);

    expect(await run('clients', 'rotate-secret', '--client-id', clientId!)).toBe(0);
    const rotated = /svcs_[0-9A-Za-z]{32}/.exec(out.join('\n').split('New client secret')[1] ?? '')?.[0];
    expect(rotated).toBeDefined();
    expect(rotated).not.toBe(secret);
    const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'service.sqlite') });
    try {
      const rows = await database.db.selectFrom('oauth_clients').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(rotated!);
    } finally {
      await database.close();
    }

    expect(await run('keys', 'rotate')).toBe(0);
    expect(await run('keys', 'rotate')).toBe(0);
    expect(out.join('\n')).toMatch(/New signing key \w+ is published now/);
    expect(fs.existsSync(path.join(dir, 'signing-key.secret'))).toBe(true);
    expect(fs.statSync(path.join(dir, 'signing-key.secret')).mode & 0o077).toBe(0);
  });

  it.each([
    [
      ['clients', 'create', '--name', 'X', '--redirect-uri', 'http://partner.example/cb', '--scopes', 'profile'],
      'must use https',
    ],
    [
      ['clients', 'create', '--name', 'X', '--redirect-uri', 'https://x.example/cb#frag', '--scopes', 'profile'],
      'fragment',
    ],
    [
      ['clients', 'create', '--name', 'X', '--redirect-uri', 'https://x.example/cb', '--scopes', 'profile root'],
      'Unknown scope: root',
    ],
    [['clients', 'create', '--name', 'X', '--scopes', 'profile'], 'at least one redirect URI'],
    [['clients', 'rotate-secret', '--client-id', 'svcc_nobody'], 'No confidential client'],
  ])('refuses %j', async (argv, message) => {
    expect(await run(...argv)).toBe(2);
    expect(err.join('\n')).toContain(message);
  });
});
