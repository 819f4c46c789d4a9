import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { hashSecret } from '../../shared/keys.js';
import { OAuthError } from './oauth-error.js';
import { previousSecretUntil, type OAuthClient, type OAuthRepository } from './oauth-repository.js';

/** RFC 6749 2.3.1: Basic credentials are form-urlencoded before base64. */
function formDecode(text: string): string {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** Client ids and secrets hold no control characters and are not longer than 255; nothing else can name a client. */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const CREDENTIAL = /^[^\u0000-\u001f\u007f]{1,255}$/;

function credentialsOf(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
): { clientId: string; secret: string | null } {
  const credentials = basicOrBody(request, body);
  if (!CREDENTIAL.test(credentials.clientId) || (credentials.secret ? !CREDENTIAL.test(credentials.secret) : false)) {
    throw OAuthError.invalidClient('Client authentication failed');
  }
  return credentials;
}

function basicOrBody(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
): { clientId: string; secret: string | null } {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
    if (!match)
      throw OAuthError.invalidClient('The Authorization header must be Basic base64(client_id:client_secret)');
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw OAuthError.invalidClient('Basic credentials must be client_id:client_secret');
    if (body.client_secret !== undefined) {
      throw new OAuthError(
        'invalid_request',
        'Use one client authentication method: Basic or client_secret in the body, not both',
      );
    }
    let clientId: string;
    let secret: string;
    try {
      clientId = formDecode(decoded.slice(0, colon));
      secret = formDecode(decoded.slice(colon + 1));
    } catch {
      throw OAuthError.invalidClient('Basic credentials are not form-urlencoded');
    }
    if (body.client_id !== undefined && body.client_id !== clientId) {
      throw new OAuthError('invalid_request', 'client_id in the body differs from the Basic credentials');
    }
    return { clientId, secret };
  }
  if (!body.client_id)
    throw OAuthError.invalidClient('Client authentication is required (Basic, or client_id and client_secret)');
  return { clientId: body.client_id, secret: body.client_secret ?? null };
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Authenticates the calling client: a confidential client by its secret, a public client by its id alone
 * (it must then prove possession of the PKCE verifier). Any failure is `401 invalid_client`.
 */
export async function authenticateClient(
  request: FastifyRequest,
  body: Record<string, string | undefined>,
  oauth: OAuthRepository,
  now: number,
): Promise<OAuthClient> {
  const { clientId, secret } = credentialsOf(request, body);
  const client = await oauth.findClient(clientId);
  const failure = OAuthError.invalidClient('Client authentication failed');
  if (!client) throw failure;
  if (client.secretHash === null) {
    if (secret) throw failure;
    return client;
  }
  if (!secret) throw failure;
  const presented = hashSecret(secret);
  if (sameHash(presented, client.secretHash)) return client;
  // A rotated-out secret works until the end of the overlap its owner chose.
  if (previousSecretUntil(client, now) !== null && sameHash(presented, client.previousSecretHash!)) return client;
  throw failure;
}
