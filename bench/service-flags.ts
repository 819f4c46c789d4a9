import fs from 'node:fs';

/**
 * The node flags `npm start` gives the service (package.json's `start` script), read from there so that the
 * benchmarks always run the service with the same heap limits as production does.
 */
export function serviceNodeFlags(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode((?: --\S+)*) dist\/server\.js/.exec(scripts.start)?.[1];
  if (flags === undefined) throw new Error(`package.json's start script no longer runs "node … dist/server.js": ${scripts.start}`);
  return flags.trim().split(' ').filter(Boolean);
}
