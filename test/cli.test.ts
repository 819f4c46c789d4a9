import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS, runCli } from '../src/cli/main.js';
import { openDatabase } from '../src/db/database.js';
import { AccountsRepository } from '../src/modules/accounts/accounts-repository.js';
import { AppKeyService } from '../src/modules/accounts/app-key-service.js';
import { WebhookEndpoints } from '../src/modules/webhooks/webhook-endpoints.js';

describe('operator CLI', () => {
  let dir: string;
  let env: Record<string, string>;
  let out: string[];
  let err: string[];
  const io = {
    out: (l: string) => {
      out.push(l);
    },
    err: (l: string) => {
      err.push(l);
    },
  };
  const run = (...argv: string[]) => runCli(argv, io, env);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
    env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
    out = [];
    err = [];
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('migrates the database named by the settings', async () => {
    expect(await run('migrate')).toBe(0);
    expect(out.join('\n')).toContain('2026-11-21-001-initial-schema');
    expect(await run('migrate')).toBe(0);
    expect(out.join('\n')).toContain('Already up to date');
  });

  it.each(COMMANDS.map((c) => c.name))('explains "%s --help"', async (name) => {
    expect(await run(...name.split(' '), '--help')).toBe(0);
    expect(out.join('\n')).toContain(`Usage: npm run cli -- ${name}`);
  });

  const groups = [...new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]!))];
  it.each(groups)(
    'lists the commands of the group "%s" on --help, -h and help, and on the group alone as a usage error',
    async (group) => {
      const members = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
      for (const argv of [
        [group, '--help'],
        [group, '-h'],
        ['help', group],
      ]) {
        out = [];
        expect(await run(...argv), argv.join(' ')).toBe(0);
        for (const c of members) expect(out.join('\n')).toContain(c.usage);
        expect(out.join('\n')).not.toContain('migrate ');
      }
      out = [];
      expect(await run(group)).toBe(2);
      expect(out.join('\n')).toContain(`npm run cli -- ${group} <command>`);
    },
  );

  it('creates an app whose key is printed once and authenticates', async () => {
    expect(await run('apps', 'create', '--name', 'Partner app')).toBe(0);
    const key = /svck_[0-9A-Za-z]{32}/.exec(out.join('\n'))?.[0];
    expect(key).toBeDefined();
    const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'service.sqlite') });
    try {
      const service = new AppKeyService(new AccountsRepository(database.db, Date.now), 0);
      expect(await service.authenticate(key!)).toMatchObject({ appId: 1 });
      const stored = await database.db.selectFrom('app_keys').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(key!);
      expect(await run('apps', 'revoke-key', '--key', key!)).toBe(0);
      expect(await new AppKeyService(new AccountsRepository(database.db, Date.now), 0).authenticate(key!)).toBeNull();
    } finally {
      await database.close();
    }
  });

  it('lists, disables, enables and redelivers webhooks, and deletes an app with everything it holds', async () => {
    expect(await run('apps', 'create', '--name', 'Hooked app')).toBe(0);
    const key = /svck_[0-9A-Za-z]{32}/.exec(out.join('\n'))![0];
    const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'service.sqlite') });
    try {
      const { db } = database;
      const { id: endpointId } = await new WebhookEndpoints(db, Buffer.alloc(32), 10).create(
        1,
        'https://hooks.example.com/in',
        [],
        Date.now(),
      );
      const ping = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirstOrThrow();
      const state = async () =>
        (await db.selectFrom('webhook_deliveries').select('state').where('id', '=', ping.id).executeTakeFirstOrThrow())
          .state;
      out.length = 0;
      expect(await run('webhooks', 'list')).toBe(0);
      expect(out).toEqual([`${endpointId}  app 1  https://hooks.example.com/in  active  1 waiting`]);

      expect(await run('webhooks', 'disable', '--endpoint', endpointId)).toBe(0);
      expect(await state()).toBe('failed');
      out.length = 0;
      expect(await run('webhooks', 'list', '--app', '1')).toBe(0);
      expect(out[0]).toMatch(/ disabled \S+ \(disabled by the operator\) {2}0 waiting$/);
      expect(await run('webhooks', 'disable', '--endpoint', endpointId)).toBe(2);
      expect(await run('webhooks', 'redeliver', '--delivery', ping.id)).toBe(2);
      expect(err.join('\n')).toContain(`webhooks enable --endpoint ${endpointId} first`);
      expect(await run('webhooks', 'enable', '--endpoint', endpointId)).toBe(0);
      expect(await run('webhooks', 'redeliver', '--delivery', ping.id)).toBe(0);
      expect(await state()).toBe('pending');
      expect(await run('webhooks', 'enable', '--endpoint', 'ep_nothing')).toBe(2);

      expect(await run('apps', 'delete', '--app', '1')).toBe(2);
      expect(await new AppKeyService(new AccountsRepository(db, Date.now), 0).authenticate(key)).toMatchObject({
        appId: 1,
      });
      out.length = 0;
      expect(await run('apps', 'delete', '--app', '1', '--yes')).toBe(0);
      expect(out).toEqual([
        'App 1 deleted: 1 key(s) stopped, 0 grant(s) revoked.',
        "Running instances refuse its keys and tokens within their caches' lifetime (no revocation channel reached).",
      ]);
      expect(await new AppKeyService(new AccountsRepository(db, Date.now), 0).authenticate(key)).toBeNull();
      expect(await db.selectFrom('webhook_endpoints').select('id').execute()).toEqual([]);
      expect(await run('apps', 'delete', '--app', '1', '--yes')).toBe(2);
    } finally {
      await database.close();
    }
  });

  it('creates users and companies and grants company-wide and resource roles', async () => {
    expect(await run('users', 'create', '--email', 'ada@example.com', '--name', 'Ada', '--handle', 'ada')).toBe(0);
    expect(out.join('\n')).toMatch(/Password \(shown once\): \S{16}/);
    expect(
      await run(
        'companies',
        'create',
        '--handle',
        'lovelace',
        '--name',
        'Lovelace Ltd',
        '--industry',
        'IT_SOFTWARE',
        '--size',
        'SMALL',
      ),
    ).toBe(0);
    expect(
      await run('roles', 'grant', '--user', 'ada@example.com', '--company', 'lovelace', '--role', 'RECRUITER'),
    ).toBe(0);
    expect(
      await run(
        'roles',
        'grant',
        '--user',
        'ada@example.com',
        '--company',
        'lovelace',
        '--role',
        'JOB_VIEWER',
        '--resource-type',
        'JOB',
        '--resource-id',
        '42',
      ),
    ).toBe(0);
    const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'service.sqlite') });
    try {
      expect(await database.db.selectFrom('company_roles').select('role').execute()).toEqual([{ role: 'RECRUITER' }]);
      expect(
        await database.db.selectFrom('resource_roles').select(['resource_type', 'resource_id', 'role']).execute(),
      ).toEqual([{ resource_type: 'JOB', resource_id: '42', role: 'JOB_VIEWER' }]);
      const user = await database.db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
    } finally {
      await database.close();
    }
  });

  it('lists users, companies, roles and apps, revokes roles, rotates keys with an overlap and shows the audit trail', async () => {
    expect(
      await run(
        'users',
        'create',
        '--email',
        'ada@example.com',
        '--name',
        'Ada',
        '--handle',
        'ada',
        '--password',
        'correct-horse-battery',
      ),
    ).toBe(0);
    expect(
      await run(
        'companies',
        'create',
        '--handle',
        'lovelace',
        '--name',
        'Lovelace Ltd',
        '--industry',
        'IT_SOFTWARE',
        '--size',
        'SMALL',
      ),
    ).toBe(0);
    expect(
      await run('roles', 'grant', '--user', 'ada@example.com', '--company', 'lovelace', '--role', 'RECRUITER'),
    ).toBe(0);
    expect(
      await run(
        'roles',
        'grant',
        '--user',
        'ada@example.com',
        '--company',
        'lovelace',
        '--role',
        'JOB_VIEWER',
        '--resource-type',
        'JOB',
        '--resource-id',
        '42',
      ),
    ).toBe(0);
    expect(await run('apps', 'create', '--name', 'Partner app')).toBe(0);
    out = [];
    expect(await run('users', 'list')).toBe(0);
    expect(await run('companies', 'list')).toBe(0);
    expect(await run('roles', 'list', '--company', 'lovelace')).toBe(0);
    expect(out).toEqual(
      expect.arrayContaining([
        '1  ada@example.com  @ada  Ada',
        '1  lovelace  Lovelace Ltd  (IT_SOFTWARE, SMALL)',
        'lovelace  ada@example.com  RECRUITER',
        'lovelace  ada@example.com  JOB_VIEWER on JOB 42',
      ]),
    );

    expect(
      await run('roles', 'revoke', '--user', 'ada@example.com', '--company', 'lovelace', '--role', 'RECRUITER'),
    ).toBe(0);
    expect(
      await run(
        'roles',
        'revoke',
        '--user',
        'ada@example.com',
        '--company',
        'lovelace',
        '--role',
        'JOB_VIEWER',
        '--resource-type',
        'JOB',
        '--resource-id',
        '42',
      ),
    ).toBe(0);
    out = [];
    expect(await run('roles', 'list')).toBe(0);
    expect(out).toEqual(['No roles.']);
    expect(
      await run('roles', 'revoke', '--user', 'ada@example.com', '--company', 'lovelace', '--role', 'RECRUITER'),
    ).toBe(1);
    expect(err.join('\n')).toContain('does not hold RECRUITER at lovelace');

    out = [];
    expect(await run('apps', 'rotate-key', '--app', '1', '--overlap', '1h')).toBe(0);
    expect(out[0]).toMatch(/^New app key \(shown once, store it now\): svck_[0-9A-Za-z]{32}$/);
    expect(out[1]).toMatch(/^The earlier keys work until \d{4}-\d\d-\d\dT/);
    out = [];
    expect(await run('apps', 'list')).toBe(0);
    expect(out[0]).toBe('1  Partner app  (owner: operator)');
    expect(out[1]).toMatch(/key 1 .* works until /);
    expect(out[2]).toMatch(/key 2 .* working$/);
    out = [];
    expect(await run('apps', 'audit', '--app', '1')).toBe(0);
    expect(out[0]).toMatch(/key\.rotated\s+operator\s+new key \S+; 1 earlier key works for 1h more$/);
    expect(await run('apps', 'rotate-key', '--app', '1', '--overlap', '2h')).toBe(2);
    expect(err.join('\n')).toContain('--overlap must be one of none, 1h, 24h, 7d');
    expect(await run('apps', 'rotate-key', '--app', '99')).toBe(2);
    expect(err.join('\n')).toContain('No app 99');
  });

  it.each([
    [
      ['companies', 'create', '--handle', 'x', '--name', 'X', '--industry', 'IT_SOFTWARE', '--size', 'ENORMOUS'],
      2,
      '--size must be one of',
    ],
    [
      ['companies', 'create', '--handle', 'bad handle', '--name', 'X', '--industry', 'IT_SOFTWARE', '--size', 'TINY'],
      2,
      '--handle must be',
    ],
    [['apps', 'create'], 2, '--name is required'],
    [['apps', 'create', '--name', 'x', '--colour', 'red'], 2, "Unknown option '--colour'"],
    [['users', 'create', '--email', 'not-an-email', '--name', 'N', '--handle', 'h'], 2, '--email must be'],
    [['roles', 'grant', '--user', 'nobody@example.com', '--company', 'c', '--role', 'OWNER'], 1, 'No user'],
    [['frobnicate'], 2, 'Unknown command'],
  ])('fails clearly: %j', async (argv, code, message) => {
    expect(await run(...argv)).toBe(code);
    expect(err.join('\n')).toContain(message);
  });

  it('seeds the demo data and writes demo-credentials.json', async () => {
    expect(await run('seed-demo')).toBe(0);
    const credentials = JSON.parse(fs.readFileSync(path.join(dir, 'demo-credentials.json'), 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual(['apiKey', 'apiUrl', 'client', 'companyId', 'examples', 'user']);
    expect(credentials.apiKey).toMatch(/^svck_[0-9A-Za-z]{32}$/);
    expect(credentials.user).toEqual({ email: 'demo@example.com', password: 'demo-password-2026' });
    expect(credentials.companyId).toBe('acme-labs');
    const logo = path.join(dir, 'media', 'demo', 'logos', 'acme-labs.png');
    expect(fs.readFileSync(logo).subarray(1, 4).toString()).toBe('PNG');
    expect(await run('seed-demo')).toBe(1);
    expect(err.join('\n')).toContain('already holds data');
  });

  it('rebuilds the post, job, event, company and profile indexes with a progress bar, and the check reports a divergence from the tables', async () => {
    expect(await run('seed-demo')).toBe(0);
    out = [];
    expect(await run('search', 'check')).toBe(0);
    expect(out.join('\n')).toContain('No saved copy');
    expect(await run('search', 'rebuild')).toBe(0);
    expect(out.some((line) => /^posts \[#{30}\] \d+\/\d+/.test(line))).toBe(true);
    expect(out.some((line) => /^jobs \[#{30}\] \d+\/\d+/.test(line))).toBe(true);
    expect(out.some((line) => /^events \[#{30}\] \d+\/\d+/.test(line))).toBe(true);
    expect(out.some((line) => /^companies \[#{30}\] \d+\/\d+/.test(line))).toBe(true);
    expect(out.some((line) => /^profiles \[#{30}\] \d+\/\d+/.test(line))).toBe(true);
    for (const plural of ['posts', 'jobs', 'events', 'companies', 'profiles']) {
      expect(out.join('\n')).toMatch(new RegExp(`Built: \\d+ ${plural}`));
      expect(fs.existsSync(path.join(dir, 'search-index', `${plural}.idx`))).toBe(true);
    }
    out = [];
    expect(await run('search', 'check')).toBe(0);
    expect(
      out.filter((line) => line.startsWith('OK: the saved copy and the changes since equal a build from the tables')),
    ).toHaveLength(5);
    // A post and a job changed behind the change log's back (no write of the service does this): the check says so.
    const database = openDatabase({ kind: 'sqlite', url: path.join(dir, 'service.sqlite') });
    try {
      const post = await database.db.selectFrom('posts').select('id').orderBy('id').executeTakeFirstOrThrow();
      await database.db
        .updateTable('posts')
        .set({ content: 'changed behind the log' })
        .where('id', '=', post.id)
        .execute();
      const job = await database.db
        .selectFrom('jobs')
        .select('id')
        .where('status', '=', 'published')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await database.db.updateTable('jobs').set({ view_count: 123_456 }).where('id', '=', job.id).execute();
      expect(await run('search', 'check')).toBe(1);
      expect(err.join('\n')).toMatch(/DIVERGED: 1 of \d+ posts/);
      expect(err.join('\n')).toContain(`post ${post.id}`);
      expect(err.join('\n')).toMatch(/DIVERGED: 1 of \d+ jobs/);
      expect(err.join('\n')).toContain(`job ${job.id}`);
    } finally {
      await database.close();
    }
  });

  it('runs as a program through npm run cli', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'apps', 'create', '--help'], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    expect(output).toContain('apps create --name NAME');
  });

  it('runs as a program when reached through a symlink, as a deployed release often is', () => {
    const releases = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-link-'));
    try {
      fs.symlinkSync(path.resolve('src'), path.join(releases, 'current'));
      const output = execFileSync(
        process.execPath,
        ['--import', 'tsx', path.join(releases, 'current/cli/main.ts'), 'apps', 'create', '--help'],
        { encoding: 'utf8', env: { ...process.env, ...env } },
      );
      expect(output).toContain('apps create --name NAME');
    } finally {
      fs.rmSync(releases, { recursive: true, force: true });
    }
  });
});
