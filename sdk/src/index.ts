export {
  createClient,
  type Change,
  type ChangePage,
  type Client,
  type ClientOptions,
  type CallOptions,
  type InputOf,
  type ResultOf,
  type ItemOf,
  type OperationId,
  type PagedOperationId,
} from './client.js';
export { ErrorCode, SvcApiError, OAuthError, UnexpectedResponseError } from './errors.js';
export {
  authorizeUrl,
  createPkcePair,
  createState,
  exchangeCode,
  refreshTokens,
  revokeToken,
  OAuthSession,
  type TokenResponse,
  type TokenSource,
  type ClientCredentials,
} from './oauth.js';
export { OPERATIONS } from './operations.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookDelivery,
  type WebhookHeaders,
  type WebhookPing,
  type WebhookTestWithoutResource,
} from './webhooks.js';
export type * from './models.js';
export type { components, operations, paths } from './schema.js';
