import { expect } from 'vitest';
import { Browser, fetchSend, hiddenField, type Send, type Sent } from './oauth-browser.js';

const text = (html: string, id: string): string => {
  const match = new RegExp(`id="${id}">([^<]+)<`).exec(html);
  expect(match, `#${id}`).not.toBeNull();
  return match![1]!.trim();
};

/**
 * The developer console driven through its real forms over HTTP, as a browser without JavaScript would:
 * sign in, create an app, give it an OAuth client, rotate, revoke, delete. For the tests that need the
 * console's effects rather than its looks (those are tested in Chromium, console.test.ts).
 */
export class ConsoleForms {
  readonly browser: Browser;
  private csrf = '';

  /** Over a listening server at `base`, or through another `Send` (`injectSend(app)`). */
  constructor(base: string | Send) {
    this.browser = new Browser(typeof base === 'string' ? fetchSend(base) : base);
  }

  async signIn(user: { email: string; password: string }): Promise<void> {
    const page = await this.browser.request('GET', '/console/sign-in');
    this.csrf = hiddenField(page.body, 'csrf_token');
    const res = await this.post('/console/sign-in', { email: user.email, password: user.password });
    expect(res.status, res.body).toBe(303);
    // Form tokens are bound to the session: the signed-in pages carry a new one.
    const apps = await this.browser.request('GET', '/console/apps');
    this.csrf = hiddenField(apps.body, 'csrf_token');
  }

  /** Posts a console form with the form token. */
  post(path: string, fields: Record<string, string | string[]> = {}): Promise<Sent> {
    const entries: [string, string][] = [['csrf_token', this.csrf]];
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) entries.push([name, one]);
    return this.browser.request('POST', path, entries);
  }

  /** A form that makes a key or secret answers 303 to the page that shows it once: that page. */
  async shown(res: Sent): Promise<Sent> {
    expect(res.status, res.body).toBe(303);
    const page = await this.browser.request('GET', res.headers.location as string);
    expect(page.status, page.body).toBe(200);
    return page;
  }

  /** Creates an app; returns its id and the key shown once. */
  async createApp(name: string): Promise<{ appId: number; apiKey: string }> {
    const page = await this.shown(await this.post('/console/apps', { name }));
    return {
      appId: Number(/action="\/console\/apps\/(\d+)\/delete"/.exec(page.body)![1]),
      apiKey: text(page.body, 'app-key'),
    };
  }

  /** Gives an app a confidential OAuth client; returns its id and the secret shown once. */
  async createClient(
    appId: number,
    redirectUri: string,
    scopes: string[],
  ): Promise<{ clientId: string; clientSecret: string }> {
    const page = await this.shown(
      await this.post(`/console/apps/${appId}/client`, { redirect_uris: redirectUri, scopes, type: 'confidential' }),
    );
    return { clientId: text(page.body, 'client-id'), clientSecret: text(page.body, 'client-secret') };
  }

  /** Adds a webhook endpoint to an app; returns its id and the signing secret shown once. */
  async createEndpoint(
    appId: number,
    url: string,
    types: string[] = [],
  ): Promise<{ endpointId: string; secret: string }> {
    const page = await this.shown(await this.post(`/console/apps/${appId}/webhooks`, { url, types }));
    return { endpointId: text(page.body, 'endpoint-id'), secret: text(page.body, 'signing-secret') };
  }
}
