/**
 * A desktop host's default path with nothing configured (issue 68): the official SDK's own OAuth client, given no
 * client information, registers itself (RFC 7591) with a redirect on a loopback port it picked, the user signs in and
 * consents in Chromium, and the agent, sending only its token, calls a public tool and a user tool; the v1 client
 * (protocol 2025-11-25) and the v2 client pinned to 2026-07-28 alike.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  type OAuthClientProvider as ProviderV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowInChromium, hasChromium, launchChromium } from './helpers/browser.js';
import { freePort } from '../support/free-port.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';

describe.runIf(hasChromium || process.env.CI_REQUIRE_BROWSER).each(ENGINES)(
  'a desktop MCP host with nothing configured, on %s',
  (engine) => {
    let t: ListeningApp;
    let browser: Browser;
    beforeAll(async () => {
      t = await startListeningApp(engine);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('registers itself, signs the user in on a loopback port of its choosing, and reaches public and user tools with OAuth alone', async () => {
      // Whatever port was free: registered as http://127.0.0.1:<port>/callback, as hosts do.
      const redirect = `http://127.0.0.1:${await freePort()}/callback`;
      const state: {
        info?: OAuthClientInformationMixed;
        tokens?: OAuthTokens;
        verifier?: string;
        authorizationUrl?: URL;
      } = {};
      const provider: OAuthClientProvider = {
        get redirectUrl() {
          return redirect;
        },
        get clientMetadata() {
          return {
            client_name: 'Desktop host',
            redirect_uris: [redirect],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          };
        },
        clientInformation: () => state.info,
        saveClientInformation: (info) => {
          state.info = info;
        },
        tokens: () => state.tokens,
        saveTokens: (tokens) => {
          state.tokens = tokens;
        },
        redirectToAuthorization: (url) => {
          state.authorizationUrl = url;
        },
        saveCodeVerifier: (verifier) => {
          state.verifier = verifier;
        },
        codeVerifier: () => state.verifier!,
      };
      const url = new URL(`${t.base}/mcp`);
      const agent = new Client({ name: 'desktop-host-test', version: '1.0.0' });
      await expect(agent.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(
        UnauthorizedError,
      );
      // It registered: a public native client of its own, no secret.
      expect(state.info?.client_id).toMatch(/^svcd_/);
      expect((state.info as { client_secret?: string }).client_secret).toBeUndefined();
      const authorization = state.authorizationUrl!;
      expect(authorization.searchParams.get('client_id')).toBe(state.info!.client_id);

      const { consent, callback } = await allowInChromium(browser, authorization, t.demo.user, (sent) =>
        sent.startsWith(redirect),
      );
      expect(consent).toMatch(/Desktop host \(127\.0\.0\.1:\d+\)/);
      expect(consent).toMatch(
        /registered itself on \d{4}-\d{2}-\d{2} from the address 127\.0\.0\.1; nobody has reviewed it\. After you decide, you go back to http:\/\/127\.0\.0\.1:\d+\/callback\./,
      );

      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
      await transport.finishAuth(callback.searchParams.get('code')!);
      await agent.connect(transport);
      try {
        const jobs = await agent.callTool({ name: 'search_jobs', arguments: { pageSize: 2 } });
        expect(jobs.isError ?? false, JSON.stringify(jobs.content)).toBe(false);
        expect((jobs.structuredContent as { items: unknown[] }).items).toHaveLength(2);
        const me = await agent.callTool({ name: 'get_me', arguments: {} });
        expect(me.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
      } finally {
        await agent.close();
      }
    }, 60_000);

    it("does the same with the SDK's v2 client speaking protocol 2026-07-28", async () => {
      const redirect = `http://127.0.0.1:${await freePort()}/callback`;
      const state: { info?: unknown; tokens?: unknown; verifier?: string; authorizationUrl?: URL } = {};
      const provider = {
        get redirectUrl() {
          return redirect;
        },
        get clientMetadata() {
          return {
            client_name: 'Modern host',
            redirect_uris: [redirect],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'none',
          };
        },
        clientInformation: () => state.info,
        saveClientInformation: (info: unknown) => {
          state.info = info;
        },
        tokens: () => state.tokens,
        saveTokens: (tokens: unknown) => {
          state.tokens = tokens;
        },
        redirectToAuthorization: (url: URL) => {
          state.authorizationUrl = url;
        },
        saveCodeVerifier: (verifier: string) => {
          state.verifier = verifier;
        },
        codeVerifier: () => state.verifier!,
      } as unknown as ProviderV2;
      const url = new URL(`${t.base}/mcp`);
      const options = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
      await expect(
        new ClientV2({ name: 'modern-host-test', version: '1.0.0' }, options).connect(
          new TransportV2(url, { authProvider: provider }),
        ),
      ).rejects.toThrow();
      expect((state.info as { client_id?: string } | undefined)?.client_id).toMatch(/^svcd_/);

      const { callback } = await allowInChromium(browser, state.authorizationUrl!, t.demo.user, (sent) =>
        sent.startsWith(redirect),
      );
      const transport = new TransportV2(url, { authProvider: provider });
      await transport.finishAuth(callback.searchParams);
      const agent = new ClientV2({ name: 'modern-host-test', version: '1.0.0' }, options);
      await agent.connect(transport);
      try {
        expect(agent.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        const jobs = await agent.callTool({ name: 'search_jobs', arguments: { pageSize: 2 } });
        expect(jobs.isError ?? false, JSON.stringify(jobs.content)).toBe(false);
        const me = await agent.callTool({ name: 'get_me', arguments: {} });
        expect(me.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
      } finally {
        await agent.close();
      }
    }, 60_000);
  },
);
