import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const thisCheckout = fileURLToPath(new URL('..', import.meta.url));

/** The `start` script of a checkout's package.json (another commit's, for bench:versus, starts with its own). */
const startScript = (checkout: string): string =>
  (
    JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    }
  ).scripts.start;

/**
 * The node flags `npm start` gives the service (package.json's `start` script), read from there so that the
 * benchmarks always run the service with the same heap limits as production does.
 */
export function serviceNodeFlags(checkout = thisCheckout): string[] {
  const start = startScript(checkout);
  const flags = /\bnode((?: --\S+)*) dist\/server\.js/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`package.json's start script no longer runs "node … dist/server.js": ${start}`);
  return flags.trim().split(' ').filter(Boolean);
}

/** The environment `npm start` sets for the service (`env NAME=value … node`), for the benchmarks to set alike. */
export function serviceEnv(checkout = thisCheckout): Record<string, string> {
  const settings = /\benv((?: \w+=\S+)+) node\b/.exec(startScript(checkout))?.[1] ?? '';
  return Object.fromEntries(
    settings
      .trim()
      .split(' ')
      .filter(Boolean)
      .map((setting) => setting.split('=', 2) as [string, string]),
  );
}
