/**
 * An app's OAuth client: registered (its secret shown once), its redirect URIs and scopes changed, its secret rotated
 * with an overlap, the previous secret ended early. Behind the signed-in pages' guard (console-guard.ts); every form
 * here needs an account whose address is confirmed.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialError, isOverlap, OverlapRunningError } from '../apps/app-credentials.js';
import { ClientRegistrationError } from '../oauth/client-admin.js';
import { ClientForm, OverlapForm, TokenOnlyForm, type FormOf } from './console-forms.js';
import { consoleTime, type ConsoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';

const route = { schema: { hide: true, params: Type.Object({ appId: Type.String() }) }, config: { proven: true } };

/** Redirect URIs, one a line. */
const lines = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export const clientPages: FastifyPluginAsyncTypebox<{ kit: ConsoleKit; opts: ConsoleOptions }> = async (
  app,
  { kit, opts },
) => {
  const { oauth, clock } = opts;
  const { credentials, appPage, showOnce } = kit;

  /**
   * Runs a change to the app's client: a new secret goes to the page that shows it once, a notice is shown; a refused
   * setting (a bad redirect URI, no scope, a rotation during an overlap) shows the page again with why.
   */
  async function clientChange(
    request: FastifyRequest,
    reply: FastifyReply,
    change: (appId: number, userId: number) => Promise<{ newSecret?: string; notice?: string }>,
  ) {
    try {
      const { newSecret, notice } = await change(request.consoleApp!.id, request.consoleUser!.id);
      if (newSecret) return await showOnce(request, reply, 'secret', newSecret);
      return await appPage(request, reply, { notice });
    } catch (err) {
      const t = kit.text(request);
      if (err instanceof OverlapRunningError)
        return appPage(request, reply, { error: `${t.overlapRunning}${consoleTime(err.until)}` }, 409);
      if (err instanceof ClientRegistrationError) {
        // The client form again with what was typed (every URI, the type, the scopes), the URIs marked with the reason.
        const form = request.body as FormOf<typeof ClientForm>;
        const clientDraft = {
          redirectUris: form.redirect_uris ?? '',
          scopes: form.scopes ?? [],
          public: form.type === 'public',
        };
        return appPage(
          request,
          reply,
          { error: t.fixBelow, fieldErrors: { redirect_uris: err.message }, clientDraft },
          400,
        );
      }
      if (err instanceof CredentialError) return appPage(request, reply, { error: err.message }, 400);
      throw err;
    }
  }

  app.post(
    '/console/apps/:appId/client',
    { ...route, schema: { ...route.schema, body: ClientForm } },
    async (request, reply) =>
      clientChange(request, reply, async (appId, userId) => {
        const form = request.body;
        const created = await credentials.createClient(
          appId,
          { redirectUris: lines(form.redirect_uris), scopes: form.scopes ?? [], public: form.type === 'public' },
          userId,
          clock(),
        );
        return { newSecret: created.clientSecret ?? undefined };
      }),
  );

  app.post(
    '/console/apps/:appId/client/update',
    { ...route, schema: { ...route.schema, body: ClientForm } },
    async (request, reply) =>
      clientChange(request, reply, async (appId, userId) => {
        await credentials.updateClient(
          appId,
          lines(request.body.redirect_uris),
          request.body.scopes ?? [],
          userId,
          clock(),
        );
        return { notice: kit.text(request).saved };
      }),
  );

  app.post(
    '/console/apps/:appId/client/rotate-secret',
    { ...route, schema: { ...route.schema, body: OverlapForm } },
    async (request, reply) =>
      clientChange(request, reply, async (appId, userId) => {
        const overlap = request.body.overlap ?? '';
        if (!isOverlap(overlap)) throw new CredentialError(kit.text(request).invalid);
        const client = await oauth.clientOfApp(appId);
        if (!client) throw new CredentialError(kit.text(request).invalid);
        return { newSecret: await credentials.rotateClientSecret(client.clientId, overlap, userId, clock()) };
      }),
  );

  app.post(
    '/console/apps/:appId/client/end-previous-secret',
    { ...route, schema: { ...route.schema, body: TokenOnlyForm } },
    async (request, reply) =>
      clientChange(request, reply, async (appId, userId) => {
        const t = kit.text(request);
        const client = await oauth.clientOfApp(appId);
        if (!client || !(await credentials.endPreviousSecret(client.clientId, userId, clock())))
          throw new CredentialError(t.noPreviousSecret);
        return { notice: t.previousEnded };
      }),
  );
};
