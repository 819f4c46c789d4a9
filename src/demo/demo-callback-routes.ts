import type { FastifyPluginAsync } from 'fastify';
import { Eta } from 'eta';

const eta = new Eta({ views: new URL('../../views/demo/', import.meta.url).pathname, cache: true, autoEscape: true });

/** The sign-in link `npm run demo` prints: its state, and the PKCE verifier of its challenge. */
export interface DemoWalkthrough {
  state: string;
  verifier: string;
}

export interface DemoCallbackOptions {
  publicBaseUrl: string;
  clientId: string;
  clientSecret: string;
  walkthrough?: DemoWalkthrough;
}

/** The page's words in the console's two languages (English for an English reader, Korean otherwise). */
const TEXT = {
  ko: {
    title: '데모 콜백',
    brand: '데모 OAuth 클라이언트',
    received: '인가 코드를 받았습니다',
    errorTitle: '인가 오류',
    code: '코드:',
    exchangeKnown: '5분 안에 교환하세요:',
    exchangeVerifier: '5분 안에, VERIFIER를 설정한 터미널에서 교환하세요:',
  },
  en: {
    title: 'Demo callback',
    brand: 'Demo OAuth client',
    received: 'Authorization code received',
    errorTitle: 'Authorization error',
    code: 'Code:',
    exchangeKnown: 'Exchange it within 5 minutes:',
    exchangeVerifier: 'Exchange it within 5 minutes, in the terminal where you set VERIFIER:',
  },
} as const;

/** Single-quoted for a POSIX shell. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * The demo OAuth client's redirect target (`npm run demo` only): shows the code it received and a curl
 * command that exchanges it. For the sign-in link the demo printed, the command is complete (the demo knows
 * that link's verifier); for a flow the builder started, it reads the verifier from $VERIFIER, as docs/getting-started.md's
 * walkthrough sets it. The redirect_uri is this page's own address, the one the code was issued for.
 */
export const demoCallbackRoutes: FastifyPluginAsync<DemoCallbackOptions> = async (app, opts) => {
  app.get('/callback', { schema: { hide: true } }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const redirectUri = `${opts.publicBaseUrl}/callback`;
    const known = opts.walkthrough !== undefined && query.state === opts.walkthrough.state;
    const lang = request.locale === 'en' ? 'en' : 'ko';
    const verifier = known ? shellQuote(opts.walkthrough!.verifier) : '"$VERIFIER"';
    const command = [
      `curl -u ${shellQuote(`${opts.clientId}:${opts.clientSecret}`)} \\`,
      '  -d grant_type=authorization_code \\',
      `  --data-urlencode code=${shellQuote(query.code ?? '')} \\`,
      `  --data-urlencode redirect_uri=${shellQuote(redirectUri)} \\`,
      `  --data-urlencode code_verifier=${verifier} \\`,
      `  ${shellQuote(`${opts.publicBaseUrl}/oauth/token`)}`,
    ].join('\n');
    return reply
      .type('text/html; charset=utf-8')
      .headers({
        'Content-Security-Policy': "default-src 'none'; style-src 'self'; frame-ancestors 'none'",
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      })
      .send(
        eta.render('./callback', {
          lang,
          t: TEXT[lang],
          error: query.error,
          errorDescription: query.error_description ?? '',
          state: query.state ?? '',
          iss: query.iss ?? '',
          code: query.code ?? '',
          known,
          command,
        }),
      );
  });
};
