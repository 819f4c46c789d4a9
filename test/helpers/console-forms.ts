import { expect } from 'vitest';
import { Browser, fetchSend, hiddenField, type Sent } from './oauth-browser.js';

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

  constructor(base: string) {
    this.browser = new Browser(fetchSend(base));
  }

  async signIn(user: { email: string; password: string }): Promise<void> {
    const page = await this.browser.request('GET', '/console/sign-in');
    this.csrf = hiddenField(page.body, 'csrf_token');
    const res = await this.post('/console/sign-in', { email: user.email, password: user.password });
    expect(res.status, res.body).toBe(303);
  }

  /** Posts a console form with the form token. */
  post(path: string, fields: Record<string, string | string[]> = {}): Promise<Sent> {
    const entries: [string, string][] = [['csrf_token', this.csrf]];
    for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) entries.push([name, one]);
    return this.browser.request('POST', path, entries);
  }

  /** Creates an app; returns its id and the key shown once. */
  async createApp(name: string): Promise<{ appId: number; apiKey: string }> {
    const res = await this.post('/console/apps', { name });
    expect(res.status, res.body).toBe(201);
    return { appId: Number(/action="\/console\/apps\/(\d+)\/delete"/.exec(res.body)![1]), apiKey: text(res.body, 'app-key') };
  }

  /** Gives an app a confidential OAuth client; returns its id and the secret shown once. */
  async createClient(appId: number, redirectUri: string, scopes: string[]): Promise<{ clientId: string; clientSecret: string }> {
    const res = await this.post(`/console/apps/${appId}/client`, { redirect_uris: redirectUri, scopes, type: 'confidential' });
    expect(res.status, res.body).toBe(200);
    return { clientId: text(res.body, 'client-id'), clientSecret: text(res.body, 'client-secret') };
  }
}
