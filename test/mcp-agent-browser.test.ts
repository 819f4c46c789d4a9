/**
 * An AI agent's whole OAuth flow against the MCP endpoint, driven by the official SDK's own client auth (its
 * OAuthClientProvider) and a real Chromium for the user: the 401 and its resource_metadata, the protected resource
 * metadata, the authorization server metadata, PKCE and `resource`, the user signing in and consenting on the
 * service's pages, the code exchanged, and tools called for the user with a token the HTTP API refuses.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from './helpers/axe.js';
import { allowInChromium, hasChromium, launchChromium } from './helpers/browser.js';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import { ENGINES } from './helpers/test-database.js';

describe.runIf(hasChromium).each(ENGINES)(
  'an AI agent signing a user in through the MCP endpoint, in Chromium, on %s',
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

    it("discovers how to get a token, gets the user's consent, and acts for the user with a token only the endpoint takes", async () => {
      const { client } = t.demo;
      const state: { tokens?: OAuthTokens; verifier?: string; authorizationUrl?: URL } = {};
      const provider: OAuthClientProvider = {
        get redirectUrl() {
          return client.redirectUri;
        },
        get clientMetadata() {
          return { client_name: 'Demo builder app', redirect_uris: [client.redirectUri] };
        },
        clientInformation: (): OAuthClientInformationMixed => ({
          client_id: client.clientId,
          client_secret: client.clientSecret,
        }),
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
      const agent = new Client({ name: 'agent-in-browser-test', version: '1.0.0' });

      // No credentials: the SDK follows the 401 to the metadata and hands over where the user must go.
      await expect(agent.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(
        UnauthorizedError,
      );
      const authorization = state.authorizationUrl!;
      expect(`${authorization.origin}${authorization.pathname}`).toBe(`${t.base}/oauth/authorize`);
      expect(authorization.searchParams.get('resource')).toBe(`${t.base}/mcp`);
      expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization.searchParams.get('scope')!.split(' ').sort()).toEqual([
        'company:manage:read',
        'post:write',
        'profile',
      ]);

      // The user, in the browser: sign in, read what the agent asks (the page passes axe), allow.
      const { consent, callback } = await allowInChromium(
        browser,
        authorization,
        t.demo.user,
        (sent) => sent.startsWith(client.redirectUri),
        async (page) => {
          expect((await new AxeBuilder(page).analyze()).violations.map((v) => v.id)).toEqual([]);
        },
      );
      expect(consent).toContain('Demo builder app');
      const code = callback.searchParams.get('code')!;
      expect(code).toBeTruthy();

      // The agent finishes: the code becomes a token for the endpoint, and it connects with it.
      const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
      await transport.finishAuth(code);
      const token = state.tokens!.access_token;
      expect((JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud).toBe(
        `${t.base}/mcp`,
      );
      await agent.connect(transport);
      try {
        const me = await agent.callTool({ name: 'get_me', arguments: {} });
        expect(me.structuredContent).toMatchObject({ preferred_username: t.demo.user.handle });
        const post = await agent.callTool({
          name: 'create_post',
          arguments: { text: 'An agent wrote this after the user allowed it in the browser.' },
        });
        expect(post.isError ?? false, JSON.stringify(post.content)).toBe(false);
      } finally {
        await agent.close();
      }
      // The same token at the HTTP API: refused.
      const atApi = await fetch(`${t.base}/api/v1/me/company-permissions`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(atApi.status).toBe(401);
    });
  },
);
