import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml } from '../modules/oauth/pages.js';

/**
 * The demo OAuth client's redirect target (`npm run demo` only): shows the code it received and the curl
 * command that exchanges it, so a builder can walk the flow with a browser and a terminal.
 */
export const demoCallbackRoutes: FastifyPluginAsync<{ publicBaseUrl: string; clientId: string; clientSecret: string }> = async (app, opts) => {
  app.get('/callback', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const redirectUri = `${opts.publicBaseUrl}/callback`;
    const body = query.error
      ? `<h1>Authorization error</h1><p><code>${escapeHtml(query.error)}</code>: ${escapeHtml(query.error_description ?? '')}</p>`
      : `<h1>Authorization code received</h1>
<p>state: <code>${escapeHtml(query.state ?? '')}</code> · iss: <code>${escapeHtml(query.iss ?? '')}</code></p>
<p>Exchange it within 5 minutes (replace $VERIFIER with your code_verifier):</p>
<pre>curl -u '${escapeHtml(opts.clientId)}:${escapeHtml(opts.clientSecret)}' \\
  -d grant_type=authorization_code \\
  -d code=${escapeHtml(query.code ?? '')} \\
  -d redirect_uri=${escapeHtml(redirectUri)} \\
  -d code_verifier=$VERIFIER \\
  ${escapeHtml(opts.publicBaseUrl)}/oauth/token</pre>`;
    return reply.type('text/html; charset=utf-8')
      .headers({ 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'", 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
      .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo callback</title></head><body>${body}</body></html>`);
  });
};
