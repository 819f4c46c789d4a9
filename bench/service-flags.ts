import fs from 'node:fs';

const startScript = (): string =>
  (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } })
    .scripts.start;

/**
 * The node flags `npm start` gives the service (package.json's `start` script), read from there so that the
 * benchmarks always run the service with the same heap limits as production does.
 */
export function serviceNodeFlags(): string[] {
  const start = startScript();
  const flags = /\bnode((?: --\S+)*) dist\/server\.js/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`package.json's start script no longer runs "node … dist/server.js": ${start}`);
  return flags.trim().split(' ').filter(Boolean);
}

/** The environment `npm start` sets for the service (`env NAME=value … node`), for the benchmarks to set alike. */
export function serviceEnv(): Record<string, string> {
  const settings = /\benv((?: \w+=\S+)+) node\b/.exec(startScript())?.[1] ?? '';
  return Object.fromEntries(
    settings
      .trim()
      .split(' ')
      .filter(Boolean)
      .map((setting) => setting.split('=', 2) as [string, string]),
  );
}
