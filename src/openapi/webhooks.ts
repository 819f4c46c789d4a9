/**
 * The `webhooks` of the OpenAPI 3.1 document (docs/webhooks.md): one entry per change type, the POST the service
 * sends to an app's endpoint. The body is the change feed's item (`ChangeEvent`) with that type; the headers are
 * Standard Webhooks'. Endpoints are managed in the developer console, not through the API.
 */
import { CHANGE_TYPES } from '../change-feed/change-log.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document: untyped JSON
type Json = Record<string, any>;

const RESOURCE_SCHEMA: Record<string, string> = {
  post: 'PostDetail',
  job: 'JobDetail',
  event: 'EventDetail',
  company: 'CompanyDetail',
  profile: 'ProfileDetail',
};
const WHAT: Record<string, string> = {
  'post.created': 'A post was written',
  'post.updated': 'A post was edited',
  'post.deleted': 'A post was deleted',
  'job.published': 'A job posting was published',
  'job.updated': 'A published job posting was changed',
  'job.closed': 'A job posting was deactivated, or its recruiting window ended',
  'job.deleted': 'A job posting was deleted',
  'event.created': 'An event was created',
  'event.updated': 'An event, its tickets, sessions, FAQs or hosts changed',
  'event.deleted': 'An event was deleted',
  'company.updated': "A company's profile was changed (its description, logo, place, links…)",
  'profile.updated':
    "A member's public profile was changed, or made public: `data` holds only what the member shows (null once it is not public)",
  'profile.deleted':
    "A member's profile stopped being public: made private, deleted, or its member's account disabled. Earlier changes of it lose their content",
};

/** `post.created` → `postCreatedWebhook`. */
export const webhookOperationId = (type: string) =>
  type.replace(/\.(\w)/, (_, c: string) => c.toUpperCase()) + 'Webhook';

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', examples: [example] },
});

export function addWebhooks(doc: Json): Json {
  const webhooks: Json = {};
  for (const type of CHANGE_TYPES) {
    const resource = type.slice(0, type.indexOf('.'));
    const deletion = type.endsWith('.deleted');
    webhooks[type] = {
      post: {
        operationId: webhookOperationId(type),
        tags: ['Changes'],
        // No credentials of ours: the receiver checks the signature instead.
        security: [],
        summary: `${WHAT[type]} (\`${type}\`)`,
        description:
          `Sent to the app's webhook endpoints that want \`${type}\`, signed per Standard Webhooks: verify \`webhook-signature\` over ` +
          "`webhook-id.webhook-timestamp.body` with the endpoint's `whsec_` secret before trusting the body, and use `webhook-id` to drop duplicates " +
          '(deliveries are at least once). Answer 2xx within 10 seconds; anything else is retried for about three days. ' +
          (deletion
            ? '`data` is null.'
            : `\`data\` is the ${resource} as its public read showed it right after the change, or null when it was no longer public.`),
        parameters: [
          header(
            'webhook-id',
            "The change's id: the same on every attempt and in the change feed",
            'evt_3bW1kq9Yv2LmX0aZ',
          ),
          header(
            'webhook-timestamp',
            'When this attempt was signed, in seconds since the epoch: refuse one far from your clock',
            '1764032400',
          ),
          header(
            'webhook-signature',
            "`v1,` and the base64 HMAC-SHA256 under each secret in use, separated by spaces (two while a rotated secret's overlap runs)",
            'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
          ),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                anyOf: [
                  {
                    allOf: [{ $ref: '#/components/schemas/ChangeEvent' }],
                    properties: {
                      type: { const: type },
                      data: deletion
                        ? { type: 'null' }
                        : { anyOf: [{ $ref: `#/components/schemas/${RESOURCE_SCHEMA[resource]}` }, { type: 'null' }] },
                    },
                  },
                  {
                    type: 'object',
                    additionalProperties: false,
                    required: ['id', 'type', 'occurredAt', 'test', 'resource', 'data'],
                    description:
                      'A test event sent from the developer console when the feed holds no change of this type: no resource to name',
                    properties: {
                      id: { type: 'string' },
                      type: { const: type },
                      occurredAt: { type: 'string', format: 'date-time' },
                      test: { const: true },
                      resource: { type: 'null' },
                      data: { type: 'null' },
                    },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '2XX': { description: 'Received: the delivery is done' },
          default: {
            description: 'Any other answer, or none within 10 seconds: sent again later with the same `webhook-id`',
          },
        },
      },
    };
  }
  webhooks['webhook.ping'] = {
    post: {
      operationId: 'webhookPingWebhook',
      tags: ['Changes'],
      security: [],
      summary: 'An endpoint was added (`webhook.ping`)',
      description:
        'Sent once to every endpoint when it is added in the developer console, signed like every delivery, so that a receiver can be ' +
        'checked without making real data. Not a change of the feed: answer 2xx and ignore it, or use it to confirm the secret.',
      parameters: [
        header('webhook-id', "The ping's own id", 'evt_Zm9vYmFyYmF6cXV4MTIz'),
        header('webhook-timestamp', 'When this attempt was signed, in seconds since the epoch', '1764032400'),
        header(
          'webhook-signature',
          "`v1,` and the base64 HMAC-SHA256 under the endpoint's secret",
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'type', 'occurredAt', 'test', 'resource', 'data'],
              properties: {
                id: { type: 'string' },
                type: { const: 'webhook.ping' },
                occurredAt: { type: 'string', format: 'date-time' },
                test: { const: true },
                resource: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['type', 'id', 'webUrl', 'companyId'],
                  properties: {
                    type: { const: 'webhook_endpoint' },
                    id: { type: 'string', description: 'The endpoint (`ep_…`)' },
                    webUrl: { type: 'null' },
                    companyId: { type: 'null' },
                  },
                },
                data: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['endpointId', 'url', 'types'],
                  properties: {
                    endpointId: { type: 'string' },
                    url: { type: 'string' },
                    types: {
                      type: 'array',
                      items: { type: 'string' },
                      description: 'The change types it wants (none: all of them)',
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received' },
        default: { description: 'Any other answer: sent again later, like any delivery' },
      },
    },
  };
  return { ...doc, webhooks };
}
