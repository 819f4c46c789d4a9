/**
 * A builder's apps: the list and a new app (its first key shown once), an app's page and its profile for the consent
 * page, its deletion, its keys rotated with an overlap or revoked, its request log and its usage. Behind the
 * signed-in pages' guard (console-guard.ts), which finds the app the path names.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialError, isOverlap } from '../apps/app-credentials.js';
import { latestRequests, REQUEST_FILTERS, type RequestFilter } from '../apps/request-log.js';
import { usageReport } from '../apps/usage.js';
import { isHttpsOrLoopback } from '../oauth/redirect-uris.js';
import { hasHiddenCharacters } from '../../shared/text-input.js';
import { AppProfileForm, ConfirmForm, NewAppForm, OverlapForm } from './console-forms.js';
import type { ConsoleKit } from './console-kit.js';
import type { ConsoleOptions } from './console-options.js';
import { fill } from './console-text.js';
import { CLASSES, stackedBars } from './usage-chart.js';

const hide = true;
const AppPath = Type.Object({ appId: Type.String() });

/** At most this many web origins an app's key may be used from. */
const MAX_WEB_ORIGINS = 10;

/** The web origins of a form's lines (`https://app.example`, or http on loopback), or the first line that is not one. */
function webOrigins(value: string | undefined): { origins: string[] } | { bad: string } {
  const lines = (value ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const origins: string[] = [];
  for (const line of lines) {
    let url: URL;
    try {
      url = new URL(line);
    } catch {
      return { bad: line };
    }
    if (!isHttpsOrLoopback(url) || url.origin !== line.replace(/\/$/, '') || origins.length >= MAX_WEB_ORIGINS)
      return { bad: line };
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return { origins };
}

/** An https address (or http on loopback, for development), or null for an empty field; undefined when invalid. */
function webAddress(value: string | undefined): string | null | undefined {
  const text = (value ?? '').trim();
  if (text === '') return null;
  try {
    const url = new URL(text);
    return isHttpsOrLoopback(url) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export const appPages: FastifyPluginAsyncTypebox<{ kit: ConsoleKit; opts: ConsoleOptions }> = async (
  app,
  { kit, opts },
) => {
  const { clock } = opts;
  const { apps, credentials, reveals, render, appPage, showOnce } = kit;

  /** The user's apps, with how many more they may make. */
  async function appsPage(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const user = request.consoleUser!;
    const t = kit.text(request);
    const list = (await apps.appsOf(user.id)).map((a) => ({ id: a.id, name: a.name, createdAt: Number(a.created_at) }));
    const max = opts.appsPerBuilder;
    return render(
      request,
      reply,
      'apps',
      {
        pageTitle: t.apps,
        user,
        section: 'apps',
        apps: list,
        quota: fill(t.appsQuota, { used: list.length, max }),
        full: list.length >= max ? fill(t.appsFull, { max }) : null,
        ...extra,
      },
      status,
    );
  }

  app.get('/console/apps', { schema: { hide } }, async (request, reply) => appsPage(request, reply));

  app.post(
    '/console/apps',
    { schema: { hide, body: NewAppForm }, config: { proven: true } },
    async (request, reply) => {
      const user = request.consoleUser!;
      const t = kit.text(request);
      const name = (request.body.name ?? '').trim();
      const description = (request.body.description ?? '').trim();
      if (!name || name.length > 100 || hasHiddenCharacters(name))
        return appsPage(request, reply, { error: t.nameRule }, 400);
      if (description.length > 500) return appsPage(request, reply, { error: t.descriptionRule }, 400);
      const now = clock();
      const appId = await apps.createApp(name, description, user.id, now, opts.appsPerBuilder);
      if (appId === null)
        return appsPage(request, reply, { error: fill(t.appsFull, { max: opts.appsPerBuilder }) }, 409);
      await apps.record(appId, user.id, 'app.created', name, now);
      const apiKey = await credentials.createKey(appId, user.id, now);
      request.consoleApp = (await apps.ownedApp(appId, user.id))!;
      return showOnce(request, reply, 'key', apiKey);
    },
  );

  app.get(
    '/console/apps/:appId',
    { schema: { hide, params: AppPath, querystring: Type.Object({ shown: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const token = request.query.shown;
      if (typeof token !== 'string') return appPage(request, reply);
      const made = await reveals.take(token, request.consoleUser!.id, request.consoleApp!.id);
      if (!made || made.kind === 'signing-secret')
        return appPage(request, reply, { notice: kit.text(request).shownOnce });
      return appPage(request, reply, made.kind === 'key' ? { newKey: made.value } : { newSecret: made.value });
    },
  );

  app.post(
    '/console/apps/:appId',
    { schema: { hide, params: AppPath, body: AppProfileForm } },
    async (request, reply) => {
      const owned = request.consoleApp!;
      const t = kit.text(request);
      const form = request.body;
      const name = (form.name ?? '').trim();
      const description = (form.description ?? '').trim();
      const homepageUrl = webAddress(form.homepage_url);
      const privacyUrl = webAddress(form.privacy_url);
      const origins = webOrigins(form.web_origins);
      const fieldErrors: Record<string, string> = {};
      if ('bad' in origins) fieldErrors.web_origins = `${t.webOriginRule} (${origins.bad.slice(0, 200)})`;
      if (!name || name.length > 100 || hasHiddenCharacters(name)) fieldErrors.name = t.nameRule;
      if (description.length > 500) fieldErrors.description = t.descriptionRule;
      if (homepageUrl === undefined) fieldErrors.homepage_url = t.webAddressRule;
      if (privacyUrl === undefined) fieldErrors.privacy_url = t.webAddressRule;
      if (
        Object.keys(fieldErrors).length > 0 ||
        homepageUrl === undefined ||
        privacyUrl === undefined ||
        'bad' in origins
      ) {
        // The page again with what was typed, each field that is wrong marked with its rule.
        const profileDraft = {
          name: form.name ?? '',
          description: form.description ?? '',
          homepageUrl: form.homepage_url ?? '',
          privacyUrl: form.privacy_url ?? '',
          webOrigins: form.web_origins ?? '',
        };
        return appPage(request, reply, { error: t.fixBelow, fieldErrors, profileDraft }, 400);
      }
      await apps.updateProfile(owned.id, { name, description, homepageUrl, privacyUrl, webOrigins: origins.origins });
      await apps.record(
        owned.id,
        request.consoleUser!.id,
        'app.updated',
        [name, homepageUrl ?? '', privacyUrl ?? '', ...origins.origins].filter(Boolean).join(' · '),
        clock(),
      );
      // Every instance reads the app's keys again, with their new origins (cache/revocations.ts).
      opts.appKeys.forgetApp(owned.id);
      return appPage(request, reply, { notice: t.saved });
    },
  );

  app.post(
    '/console/apps/:appId/delete',
    { schema: { hide, params: AppPath, body: ConfirmForm } },
    async (request, reply) => {
      if (request.body.confirm !== 'yes')
        return appPage(request, reply, { error: kit.text(request).confirmFirst }, 400);
      const { keyIds, grantIds } = await credentials.deleteApp(
        request.consoleApp!.id,
        request.consoleUser!.id,
        clock(),
      );
      for (const keyId of keyIds) opts.appKeys.forgetKey(keyId);
      for (const grantId of grantIds) opts.tokens.forgetGrant(grantId);
      return reply.redirect('/console/apps', 303);
    },
  );

  app.post(
    '/console/apps/:appId/keys/rotate',
    { schema: { hide, params: AppPath, body: OverlapForm }, config: { proven: true } },
    async (request, reply) => {
      const owned = request.consoleApp!;
      const overlap = request.body.overlap ?? '';
      if (!isOverlap(overlap)) return appPage(request, reply, { error: kit.text(request).invalid }, 400);
      const { apiKey } = await credentials.rotateKey(owned.id, overlap, request.consoleUser!.id, clock());
      // The old keys' new end (now, with no overlap) holds at once on every instance.
      opts.appKeys.forgetApp(owned.id);
      return showOnce(request, reply, 'key', apiKey);
    },
  );

  app.post(
    '/console/apps/:appId/keys/:keyId/revoke',
    { schema: { hide, params: Type.Object({ appId: Type.String(), keyId: Type.String() }), body: ConfirmForm } },
    async (request, reply) => {
      const owned = request.consoleApp!;
      const { keyId } = request.params;
      if (!/^\d{1,15}$/.test(keyId)) return kit.notFound(request, reply);
      if (request.body.confirm !== 'yes')
        return appPage(request, reply, { error: kit.text(request).confirmFirst }, 400);
      try {
        await credentials.revokeKey(owned.id, Number(keyId), request.consoleUser!.id, clock());
        opts.appKeys.forgetKey(Number(keyId));
      } catch (err) {
        if (err instanceof CredentialError) return kit.notFound(request, reply);
        throw err;
      }
      return reply.redirect(`/console/apps/${owned.id}`, 303);
    },
  );

  // Request log

  app.get(
    '/console/apps/:appId/requests',
    { schema: { hide, params: AppPath, querystring: Type.Object({ status: Type.Optional(Type.String()) }) } },
    async (request, reply) => {
      const owned = request.consoleApp!;
      const t = kit.text(request);
      const asked = request.query.status ?? 'all';
      const filter: RequestFilter = (REQUEST_FILTERS as readonly string[]).includes(asked)
        ? (asked as RequestFilter)
        : 'all';
      const requests = (await latestRequests(opts.database.db, owned.id, filter)).map((r) => ({
        ...r,
        when: new Date(r.at).toISOString().replace('T', ' ').slice(0, 19),
      }));
      return render(request, reply, 'requests', {
        pageTitle: `${t.rq.requests}: ${owned.name}`,
        user: request.consoleUser,
        section: 'apps',
        app: { id: owned.id, name: owned.name },
        requests,
        filter,
        filters: REQUEST_FILTERS,
        note: t.rq.note.replace('{n}', opts.requestLogPerApp.toLocaleString('en')),
      });
    },
  );

  // Usage

  app.get('/console/apps/:appId/usage', { schema: { hide, params: AppPath } }, async (request, reply) => {
    const owned = request.consoleApp!;
    const t = kit.text(request);
    const [report, profilesRead] = await Promise.all([
      usageReport(opts.database.db, owned.id, clock()),
      opts.profileReads.readToday(`app:${owned.id}`),
    ]);
    const { perMinute, perDay } = opts.globalLimits;
    return render(request, reply, 'usage', {
      pageTitle: `${t.usage}: ${owned.name}`,
      user: request.consoleUser,
      section: 'apps',
      app: { id: owned.id, name: owned.name },
      report,
      classes: CLASSES,
      minuteChart: stackedBars(report.minutes, (at) => new Date(at).toISOString().slice(11, 16), 10),
      dayChart: stackedBars(report.days, (at) => new Date(at).toISOString().slice(5, 10), 5),
      budget: {
        perMinute,
        perDay,
        minuteLeft: Math.max(0, perMinute - report.thisMinute),
        dayLeft: Math.max(0, perDay - report.today),
        profilesRead,
        profileReadsPerDay: opts.profileReads.perDay,
      },
    });
  });
};
