import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, exportPKCS8, generateKeyPair, importJWK, importPKCS8, type CryptoKey, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { randomBase62 } from '../../shared/keys.js';
import { seal, unseal } from '../../shared/sealed.js';

export const SIGNING_ALGORITHM = 'ES256';

interface LoadedKey {
  kid: string;
  publicJwk: JWK;
  publicKey: CryptoKey;
  privateKey: CryptoKey | null;
  createdAt: number;
  retiredAt: number | null;
}

/** The key that encrypts signing keys at rest: from the setting, or a random secret kept in DATA_DIR. */
export function keyEncryptionKey(secret: string | null, dataDir: string): Buffer {
  if (secret) return createHash('sha256').update(secret).digest();
  const file = path.join(dataDir, 'signing-key.secret');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return createHash('sha256').update(fs.readFileSync(file, 'utf8').trim()).digest();
}

/** How long the previous key keeps signing after a rotation, and how old a new key must be to sign. */
const ROTATION_OVERLAP_MS = 60_000;
const PUBLISH_BEFORE_USE_MS = 30_000;
/** How stale an instance's copy of the key table may be when it serves the JWKS. */
const JWKS_STALE_MS = 10_000;

/**
 * Access-token signing keys, kept in the database with the private half encrypted. A key is published
 * before it signs: after a rotation the previous key keeps signing for a minute, the new one signs once
 * it is 30 seconds old, and every instance re-reads the table for the JWKS at least every 10 seconds, so
 * no token is ever signed with a key that some instance does not publish. Retired keys stay in the JWKS
 * until every token they signed has expired.
 */
export class SigningKeys {
  private keys: LoadedKey[] = [];
  private loadedAt = 0;
  private reloading: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly kek: Buffer,
    private readonly clock: () => number,
    private readonly accessTokenSeconds: number,
  ) {}

  /** Loads the keys, creating the first one on a fresh database. */
  async init(): Promise<void> {
    await this.load();
    const now = this.clock();
    if (!this.keys.some((k) => k.privateKey && (k.retiredAt === null || k.retiredAt > now))) {
      await this.create();
      await this.load();
    }
  }

  /** Creates a new signing key and retires the others; returns the new key id. */
  async rotate(): Promise<string> {
    const now = this.clock();
    const kid = await this.create();
    await this.db
      .updateTable('oauth_signing_keys')
      .set({ retired_at: now + ROTATION_OVERLAP_MS })
      .where('kid', '!=', kid)
      .where('retired_at', 'is', null)
      .execute();
    await this.load();
    return kid;
  }

  /**
   * The key to sign with now. Never waits on the database: signing happens inside the transaction that
   * issues tokens, and on SQLite that transaction holds the only connection. A stale copy is refreshed in
   * the background; the keys already loaded stay valid meanwhile (a new key signs only after 30 s).
   */
  signingKey(): { kid: string; privateKey: CryptoKey } {
    const now = this.clock();
    if (now - this.loadedAt > JWKS_STALE_MS) this.reloadInBackground();
    // Keys are ordered newest first: the newest one old enough to be published everywhere signs.
    const usable = this.keys.filter((k) => k.privateKey && (k.retiredAt === null || k.retiredAt > now));
    const chosen = usable.find((k) => k.createdAt <= now - PUBLISH_BEFORE_USE_MS) ?? usable[usable.length - 1];
    if (!chosen?.privateKey) throw new Error('No active signing key');
    return { kid: chosen.kid, privateKey: chosen.privateKey };
  }

  /** The public key for `kid`, if it is still published. */
  async publicKey(kid: string): Promise<CryptoKey | null> {
    let key = this.keys.find((k) => k.kid === kid);
    if (!key && this.clock() - this.loadedAt > 5_000) {
      await this.load();
      key = this.keys.find((k) => k.kid === kid);
    }
    return key && this.isPublished(key) ? key.publicKey : null;
  }

  private reloadInBackground(): void {
    this.reloading ??= this.load()
      .catch(() => undefined)
      .finally(() => {
        this.reloading = null;
      });
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    if (this.clock() - this.loadedAt > JWKS_STALE_MS) await this.load();
    return { keys: this.keys.filter((k) => this.isPublished(k)).map((k) => k.publicJwk) };
  }

  private isPublished(key: LoadedKey): boolean {
    // A retired key may have signed a token just before retirement; keep it for one token lifetime more.
    return key.retiredAt === null || key.retiredAt + (this.accessTokenSeconds + 60) * 1000 > this.clock();
  }

  private async create(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const kid = randomBase62(16);
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
    await this.db
      .insertInto('oauth_signing_keys')
      .values({
        kid,
        algorithm: SIGNING_ALGORITHM,
        public_jwk: JSON.stringify(publicJwk),
        private_key_encrypted: seal(this.kek, await exportPKCS8(privateKey)),
        created_at: this.clock(),
        retired_at: null,
      })
      .execute();
    return kid;
  }

  private async load(): Promise<void> {
    const rows = await this.db.selectFrom('oauth_signing_keys').selectAll().orderBy('created_at', 'desc').execute();
    const keys: LoadedKey[] = [];
    for (const row of rows) {
      const publicJwk = JSON.parse(row.public_jwk) as JWK;
      keys.push({
        kid: row.kid,
        publicJwk,
        publicKey: (await importJWK(publicJwk, row.algorithm)) as CryptoKey,
        privateKey:
          row.retired_at === null || row.retired_at > this.clock()
            ? await importPKCS8(unseal(this.kek, row.private_key_encrypted), row.algorithm)
            : null,
        createdAt: row.created_at,
        retiredAt: row.retired_at,
      });
    }
    this.keys = keys;
    this.loadedAt = this.clock();
  }
}
