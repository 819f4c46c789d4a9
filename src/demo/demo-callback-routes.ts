import type { FastifyPluginAsync } from 'fastify';
import { Eta } from 'eta';

const eta = new Eta({ views: new URL('../../views/demo/', import.meta.url).pathname, cache: true, autoEscape: true });

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
    return reply.type('text/html; charset=utf-8')
      .headers({ 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'", 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
      .send(eta.render('./callback', {
        error: query.error, errorDescription: query.error_description ?? '', state: query.state ?? '', iss: query.iss ?? '', known, command,
      }));
  });
};
