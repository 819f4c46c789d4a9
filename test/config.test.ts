import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { DEFAULT_PASSWORD_COST, hashPassword, MIN_PASSWORD_COST, verifyPassword } from '../src/shared/passwords.js';

describe('settings', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      databaseKind: 'sqlite',
      databaseUrl: path.join('/srv/app/data', 'service.sqlite'),
      redisUrl: null,
      publicBaseUrl: 'http://127.0.0.1:8080',
      webBaseUrl: 'http://127.0.0.1:8080',
      serviceTimeZone: 'Asia/Seoul',
    });
    expect(config.rateLimits.globalPerMinute).toBe(60);
    expect(config.rateLimits.globalPerDay).toBe(5000);
    expect(config.rateLimits.operations['post.create']).toEqual({ perMinute: 2, perHour: 10, perDay: 50 });
    expect(config.rateLimits.operations['event.sub.update']).toEqual({ perMinute: 15, perHour: 150, perDay: 800 });
    expect(config.lifetimes).toEqual({
      authorizationCodeSeconds: 300,
      accessTokenSeconds: 900,
      refreshTokenSeconds: 2_592_000,
    });
    expect(config.passwordCost).toEqual({ memoryKiB: 65_536, passes: 3 });
  });

  it('refuses open metrics (METRICS=on without METRICS_TOKEN) unless the service listens on loopback only', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
      expect(() => loadConfig({ METRICS: 'on', HOST: host }), host).toThrow(/METRICS_TOKEN: required when METRICS=on/);
      expect(
        loadConfig({ METRICS: 'on', HOST: host, METRICS_TOKEN: 'a-long-random-metrics-token' }).metrics.enabled,
      ).toBe(true);
    }
    for (const host of ['127.0.0.1', '::1', 'localhost'])
      expect(loadConfig({ METRICS: 'on', HOST: host }).metrics).toEqual({ enabled: true, token: null });
  });

  it("hashes passwords at no less than OWASP's least for argon2id (19 MiB, 2 passes), the cost the tests use", async () => {
    expect(loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '2' }).passwordCost).toEqual(
      MIN_PASSWORD_COST,
    );
    for (const [name, value] of [
      ['PASSWORD_HASH_MEMORY_KIB', '19455'],
      ['PASSWORD_HASH_MEMORY_KIB', '4096'],
      ['PASSWORD_HASH_PASSES', '1'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), `${name}=${value}`).toThrow(new RegExp(name!));
    }
    // The parameters travel in the hash: one made at the least cost says so, and verifies whatever the setting now is.
    const hash = await hashPassword('correct horse battery staple', MIN_PASSWORD_COST);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=4,t=2\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'wrong')).toBe(false);
    expect(await hashPassword('x', DEFAULT_PASSWORD_COST)).toMatch(/\$m=65536,p=4,t=3\$/);
  });

  it('reads PostgreSQL URLs, SQLite paths, Redis and limits from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/svc',
      REDIS_URL: 'redis://cache:6379',
      PORT: '9000',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
      RATE_LIMIT_JOB_PUBLISH_PER_HOUR: '99',
      WEB_BASE_URL: 'https://www.example.com/',
    });
    expect(config).toMatchObject({
      databaseKind: 'postgres',
      redisUrl: 'redis://cache:6379',
      port: 9000,
      webBaseUrl: 'https://www.example.com',
    });
    expect(config.rateLimits.globalPerMinute).toBe(100_000);
    expect(config.rateLimits.operations['job.publish'].perHour).toBe(99);
    expect(loadConfig({ DATABASE_URL: './x/db.sqlite' }, '/srv').databaseUrl).toBe('/srv/x/db.sqlite');
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PUBLIC_BASE_URL', 'ftp://x'],
    ['WEB_BASE_URL', 'not a url'],
    ['SERVICE_TIME_ZONE', 'Mars/Olympus'],
    ['DATABASE_URL', 'mysql://root@db/x'],
    ['REDIS_URL', 'memcached://x'],
    ['RATE_LIMIT_POST_CREATE_PER_MINUTE', '0'],
    ['ACCESS_TOKEN_TTL_SECONDS', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '11'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '127.0.0.1,not-an-address'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      expect((err as ConfigError).message).toContain(name);
    }
  });

  it('trusts no proxy, the nearest hops, or the proxies named', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      '::1',
    ]);
  });

  it('never prints a database password', () => {
    try {
      loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' });
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});
