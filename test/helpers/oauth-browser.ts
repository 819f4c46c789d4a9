import { expect } from 'vitest';

export interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
export type Send = (
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  body?: string,
) => Promise<Sent>;

/** Sends through a real listening server with fetch, never following redirects. */
export const fetchSend =
  (base: string): Send =>
  async (method, url, headers, body) => {
    const res = await fetch(new URL(url, base), { method, headers, body, redirect: 'manual' });
    return {
      status: res.status,
      headers: { location: res.headers.get('location') ?? undefined, 'set-cookie': res.headers.getSetCookie() },
      body: await res.text(),
    };
  };

/** Sends through `app.inject`, never following redirects. */
export const injectSend =
  (app: {
    inject: (options: {
      method: 'GET' | 'POST';
      url: string;
      headers: Record<string, string>;
      payload?: string;
    }) => PromiseLike<{ statusCode: number; headers: unknown; body: string }>;
  }): Send =>
  async (method, url, headers, body) => {
    const res = await app.inject({ method, url, headers, payload: body });
    return {
      status: res.statusCode,
      headers: res.headers as Record<string, string | string[] | undefined>,
      body: res.body,
    };
  };

export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  expect(match, `hidden field ${name}`).not.toBeNull();
  return match![1]!
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** A user agent with a cookie jar that fills in the sign-in and consent forms. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly send: Send) {}

  async request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string> | [string, string][],
    headers: Record<string, string> = {},
  ): Promise<Sent> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.send(
      method,
      url,
      {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      form ? new URLSearchParams(form).toString() : undefined,
    );
    for (const line of [res.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }

  async signIn(page: Sent, email: string, password: string): Promise<Sent> {
    return this.request('POST', '/oauth/login', {
      email,
      password,
      csrf_token: hiddenField(page.body, 'csrf_token'),
      authorize_query: hiddenField(page.body, 'authorize_query'),
    });
  }

  async decide(page: Sent, decision: 'allow' | 'deny'): Promise<Sent> {
    return this.request('POST', '/oauth/authorize', {
      csrf_token: hiddenField(page.body, 'csrf_token'),
      authorize_query: hiddenField(page.body, 'authorize_query'),
      decision,
    });
  }

  /**
   * Runs the whole browser part of the flow: authorize, sign in if asked, consent if asked; returns the
   * final redirect to the client.
   */
  async authorize(
    authorizeUrl: string,
    user: { email: string; password: string },
    decision: 'allow' | 'deny' = 'allow',
  ): Promise<URL> {
    let res = await this.request('GET', authorizeUrl);
    if (res.status === 200 && res.body.includes('action="/oauth/login"')) {
      res = await this.signIn(res, user.email, user.password);
      expect(res.status, res.body).toBe(303);
      res = await this.request('GET', res.headers.location as string);
    }
    if (res.status === 200 && res.body.includes('action="/oauth/authorize"')) res = await this.decide(res, decision);
    expect([302, 303], res.body).toContain(res.status);
    return new URL(res.headers.location as string);
  }
}
