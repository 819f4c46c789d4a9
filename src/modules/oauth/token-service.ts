import { randomBytes, randomUUID } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { localRevocations, type Revocations } from '../../cache/revocations.js';
import { timeOrderedId } from '../../shared/ids.js';
import { hashSecret } from '../../shared/keys.js';
import type { OAuthRepository } from './oauth-repository.js';
import { SIGNING_ALGORITHM, type SigningKeys } from './signing-keys.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export interface AccessTokenClaims {
  userId: number;
  clientId: string;
  scopes: string[];
  grantId: string;
}

/** Why a Bearer token was refused; the description goes into WWW-Authenticate and the error body. */
export class InvalidTokenError extends Error {}

export interface TokenSettings {
  issuer: string;
  /** The HTTP API: the audience of tokens whose grant names no other resource. */
  audience: string;
  /** The other resources a grant may be for (RFC 8707): the MCP endpoint. */
  otherResources: string[];
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

const CLOCK_TOLERANCE_SECONDS = 30;
/**
 * How long a grant's state is taken from memory: a revocation is published to every instance at once
 * (cache/revocations.ts); this bounds it while that channel is down.
 */
const REVOCATION_CACHE_MS = 2_000;

/** A token whose signature and claims were verified: what it says, and the key that signed it. */
interface VerifiedToken {
  claims: AccessTokenClaims;
  kid: string;
  expiresAt: number;
  audience: string;
}

export class TokenService {
  private readonly revoked: LRUCache<string, boolean>;
  /**
   * Tokens verified, until they expire: an app sends the same token with every request, and verifying its signature
   * again is CPU, and a turn of the event loop (WebCrypto answers from the thread pool). Only the exact token string
   * finds its entry; its key must still be published, and its grant is checked for revocation on every use.
   */
  private readonly verified: LRUCache<string, VerifiedToken>;
  /** Moves with every revocation: a look-up of a grant that began before one does not cache what it read. */
  private generation = 0;

  constructor(
    private readonly oauth: OAuthRepository,
    private readonly keys: SigningKeys,
    private readonly settings: TokenSettings,
    private readonly clock: () => number,
    private readonly revocations: Revocations = localRevocations(),
  ) {
    // On the service's clock, like the tokens' lifetimes, so the bound holds on the clock the tokens are judged by;
    // read at every look (ttlResolution 0: lru-cache otherwise reuses a reading for a millisecond of real time, and
    // requests answered from memory, one after another, saw a revocation only once a timer had run).
    // lru-cache sets aside its bound's arrays at once (4.2 MB for 100,000 entries with a ttl, 0.4 MB for 10,000):
    // 10,000 grants seen within the 2 s an entry lives is more than one instance serves; past it, a grant's state
    // is read again, which is correct, only dearer.
    this.revoked = new LRUCache({ max: 10_000, ttl: REVOCATION_CACHE_MS, ttlResolution: 0, perf: { now: clock } });
    this.verified = new LRUCache({ max: 10_000, ttlResolution: 0, perf: { now: clock } });
    revocations.subscribe((revoked) => {
      if (!('grant' in revoked)) return;
      // Forgotten, not marked: the next use reads the grant (a message is a hint; the database says what is revoked).
      this.generation++;
      this.revoked.delete(revoked.grant);
    });
  }

  /** Opens a grant for a user and client and issues its first tokens. */
  async openGrant(
    repository: OAuthRepository,
    userId: number,
    clientId: string,
    scopes: string[],
    resource: string | null = null,
  ): Promise<{ grantId: string; tokens: TokenResponse }> {
    const grantId = timeOrderedId('grt', this.clock());
    await repository.createGrant({ id: grantId, userId, clientId, scopes, now: this.clock(), resource });
    return { grantId, tokens: await this.issue(repository, { grantId, userId, clientId, scopes, resource }) };
  }

  /** Every resource tokens are issued for. */
  get audiences(): string[] {
    return [this.settings.audience, ...this.settings.otherResources];
  }

  /** The audience of a grant's access tokens: its resource (RFC 8707), the HTTP API when it has none. */
  audienceOf(resource: string | null): string {
    return resource ?? this.settings.audience;
  }

  /** A new access token (RFC 9068 JWT) and a new one-time refresh token for an existing grant. */
  async issue(
    repository: OAuthRepository,
    grant: { grantId: string; userId: number; clientId: string; scopes: string[]; resource?: string | null },
  ): Promise<TokenResponse> {
    const now = this.clock();
    const nowSeconds = Math.floor(now / 1000);
    const { kid, privateKey } = this.keys.signingKey();
    const scope = grant.scopes.join(' ');
    const accessToken = await new SignJWT({ client_id: grant.clientId, scope, grant_id: grant.grantId })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: 'at+jwt', kid })
      .setIssuer(this.settings.issuer)
      .setSubject(String(grant.userId))
      .setAudience(this.audienceOf(grant.resource ?? null))
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.settings.accessTokenSeconds)
      .setJti(randomUUID())
      .sign(privateKey);
    const refreshToken = `svcr_${randomBytes(32).toString('base64url')}`;
    await repository.addRefreshToken(
      hashSecret(refreshToken),
      grant.grantId,
      now,
      now + this.settings.refreshTokenSeconds * 1000,
    );
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.settings.accessTokenSeconds,
      refresh_token: refreshToken,
      scope,
    };
  }

  /**
   * Verifies a Bearer token as a resource server must (RFC 9068 section 4) and that its grant stands. `audience`: the
   * resource asking, the HTTP API by default; a token for another resource is refused (RFC 8707).
   */
  async verify(token: string, audience: string = this.settings.audience): Promise<AccessTokenClaims> {
    let verified = this.verified.get(token);
    // A token signed by a key retired since is verified again (and refused).
    if (verified && !(await this.keys.publicKey(verified.kid))) verified = undefined;
    if (verified && verified.audience !== audience)
      throw new InvalidTokenError('The access token\'s "aud" claim is not valid here');
    const known = verified !== undefined;
    verified ??= await this.verifySignature(token, audience);
    if (await this.isRevoked(verified.claims.grantId)) throw new InvalidTokenError('The access token was revoked');
    if (!known)
      this.verified.set(token, verified, {
        ttl: Math.max(1, verified.expiresAt + CLOCK_TOLERANCE_SECONDS * 1000 - this.clock()),
      });
    return verified.claims;
  }

  private async verifySignature(token: string, audience: string): Promise<VerifiedToken> {
    let header;
    try {
      header = decodeProtectedHeader(token);
    } catch {
      throw new InvalidTokenError('The access token is malformed');
    }
    if (header.alg !== SIGNING_ALGORITHM || header.typ?.toLowerCase() !== 'at+jwt' || typeof header.kid !== 'string') {
      throw new InvalidTokenError('The access token is not an access token of this server');
    }
    const key = await this.keys.publicKey(header.kid);
    if (!key) throw new InvalidTokenError('The access token was signed with an unknown key');
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [SIGNING_ALGORITHM],
        typ: 'at+jwt',
        issuer: this.settings.issuer,
        audience,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(this.clock()),
        requiredClaims: ['sub', 'client_id', 'scope', 'jti', 'iat', 'exp', 'grant_id'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('The access token expired');
      if (err instanceof joseErrors.JWTClaimValidationFailed)
        throw new InvalidTokenError(`The access token's "${err.claim}" claim is not valid here`);
      throw new InvalidTokenError('The access token signature is not valid');
    }
    return {
      claims: {
        userId: Number(payload.sub),
        clientId: String(payload.client_id),
        scopes: String(payload.scope).split(' ').filter(Boolean),
        grantId: String(payload.grant_id),
      },
      expiresAt: payload.exp! * 1000,
      kid: header.kid,
      audience,
    };
  }

  async revokeGrant(grantId: string, reason: string): Promise<void> {
    await this.oauth.revokeGrant(grantId, reason, this.clock());
    this.forgetGrant(grantId);
  }

  /** A grant revoked (inside a transaction, now committed): every instance stops taking its access tokens. */
  forgetGrant(grantId: string): void {
    this.revocations.publish({ grant: grantId });
    this.revoked.set(grantId, true);
  }

  private async isRevoked(grantId: string): Promise<boolean> {
    const cached = this.revoked.get(grantId);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const grant = await this.oauth.findGrant(grantId);
    const revoked = !grant || grant.revoked_at !== null;
    if (generation === this.generation || revoked) this.revoked.set(grantId, revoked);
    return revoked;
  }
}
