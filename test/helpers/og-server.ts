import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local web page server for Open Graph and SSRF tests; counts the requests it receives. */
export async function startOgServer(): Promise<{ port: number; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>Fallback title</title>
<meta property="og:title" content="Hiring at Acme &amp; friends">
<meta property="og:description" content="We build APIs.">
<meta property="og:image" content="/img/card.png">
<meta property="og:site_name" content="Acme Blog">
</head><body>hello</body></html>`);
        return;
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<html><head><title>Only a title</title><meta name="description" content="Plain description"></head></html>',
        );
        return;
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/page' });
        res.end();
        return;
      case '/loop':
        res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
        res.end();
        return;
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<html><head>');
        setTimeout(() => res.end('<meta property="og:title" content="Too late"></head></html>'), 5_000).unref();
        return;
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/html' });
        const filler = 'x'.repeat(64 * 1024);
        let sent = 0;
        const pump = () => {
          while (sent < 200 && res.write(`<p>${filler}</p>`)) sent++;
          if (sent < 200) res.once('drain', pump);
          else res.end('<meta property="og:title" content="Past the cap"></html>');
        };
        pump();
        return;
      }
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
