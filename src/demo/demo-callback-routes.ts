import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml } from '../modules/oauth/pages.js';

/** The sign-in link `npm run demo` prints: its state, and the PKCE verifier of its challenge. */
export interface DemoWalkthrough { state: string; verifier: string }

export interface DemoCallbackOptions {
  publicBaseUrl: string;
  clientId: string;
  clientSecret: string;
  walkthrough?: DemoWalkthrough;
}

/** Single-quoted for a POSIX shell. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The demo OAuth client's redirect target (`npm run demo` only): shows the code it received and a curl
 * command that exchanges it. For the sign-in link the demo printed, the command is complete (the demo knows
 * that link's verifier); for a flow the builder started, it reads the verifier from $VERIFIER, as the README's
 * walkthrough sets it. The redirect_uri is this page's own address, the one the code was issued for.
 */
export const demoCallbackRoutes: FastifyPluginAsync<DemoCallbackOptions> = async (app, opts) => {
  app.get('/callback', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const redirectUri = `${opts.publicBaseUrl}/callback`;
    const known = opts.walkthrough !== undefined && query.state === opts.walkthrough.state;
    const verifier = known ? shellQuote(opts.walkthrough!.verifier) : '"$VERIFIER"';
    const command = [
      `curl -u ${shellQuote(`${opts.clientId}:${opts.clientSecret}`)} \\`,
      '  -d grant_type=authorization_code \\',
      `  --data-urlencode code=${shellQuote(query.code ?? '')} \\`,
      `  --data-urlencode redirect_uri=${shellQuote(redirectUri)} \\`,
      `  --data-urlencode code_verifier=${verifier} \\`,
      `  ${shellQuote(`${opts.publicBaseUrl}/oauth/token`)}`,
    ].join('\n');
    const body = query.error
      ? `<h1>Authorization error</h1><p><code>${escapeHtml(query.error)}</code>: ${escapeHtml(query.error_description ?? '')}</p>`
      : `<h1>Authorization code received</h1>
<p>state: <code>${escapeHtml(query.state ?? '')}</code> · iss: <code>${escapeHtml(query.iss ?? '')}</code></p>
<p>${known ? 'Exchange it within 5 minutes:' : 'Exchange it within 5 minutes, in the terminal where you set VERIFIER:'}</p>
<pre id="exchange">${escapeHtml(command)}</pre>`;
    return reply.type('text/html; charset=utf-8')
      .headers({ 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'", 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo callback</title></head><body>${body}</body></html>`);
  });
};
