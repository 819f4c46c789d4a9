/**
 * Where the service's CPU time went: npm run bench:profile -- DIR_OR_FILE [--skip SECONDS] [--top N] [--callers NAME]
 *
 * Reads a V8 CPU profile that `npm run bench -- --profile DIR` wrote (the newest `.cpuprofile` in DIR, or the
 * file named) and prints, over the samples after the first `--skip` seconds (the start-up, which the bench
 * prints as "service ready in"), the busy time by area (the service's own modules, each package, Node.js
 * internals, garbage collection, the engine's own work), then the functions with the most time of their own
 * and the service's functions with the most time under them. Idle samples are left out of every share.
 * `--callers NAME` adds, for the functions named NAME (e.g. executeQuery: every SQL statement's run), the
 * nearest of the service's functions on the stack below them: which of our calls pays for them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** What a frame belongs to: a module of the service, a package, Node.js itself, or the VM's own work. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/dist\/(.+)\.js$/.exec(url) ?? /\/(src\/.+)\.ts$/.exec(url);
  return own ? `service: ${own[1]!.replace(/^src\//, '')}` : url;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${file}`.trim();
}

function newestProfile(target: string): string {
  if (!fs.statSync(target).isDirectory()) return target;
  const files = fs
    .readdirSync(target)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(target, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`No .cpuprofile in ${target}`);
  return files[0]!;
}

function rows(totals: Map<string, number>, busy: number, top: number): string[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, us]) =>
        `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`,
    );
}

export function summarize(profile: Profile, skipSeconds: number, top: number, callersOf?: string): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const byArea = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const callers = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  const skipUntil = profile.startTime + skipSeconds * 1e6;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const node = byId.get(profile.samples[i]!)!;
    if (at < skipUntil || node.callFrame.functionName === '(idle)') continue;
    busy += delta;
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + delta);
    self.set(label(node), (self.get(label(node)) ?? 0) + delta);
    if (callersOf !== undefined && node.callFrame.functionName === callersOf) {
      let caller = '(no service function on the stack)';
      for (let id = parent.get(node.id); id !== undefined; id = parent.get(id)) {
        const frame = byId.get(id)!;
        if (areaOf(frame.callFrame.url, frame.callFrame.functionName).startsWith('service: ')) {
          caller = label(frame);
          break;
        }
      }
      callers.set(caller, (callers.get(caller) ?? 0) + delta);
    }
    // Time under each of the service's own functions on the stack, counted once per sample.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!;
      if (!areaOf(frame.callFrame.url, frame.callFrame.functionName).startsWith('service: ')) continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
    }
  }
  return [
    `busy ${(busy / 1000).toFixed(0)} ms of CPU after the first ${skipSeconds} s (idle samples left out)`,
    '',
    'By area (time of its own):',
    ...rows(byArea, busy, top),
    '',
    'Functions, time of their own:',
    ...rows(self, busy, top),
    '',
    "The service's functions, time under them:",
    ...rows(inclusive, busy, top),
    ...(callersOf === undefined
      ? []
      : ['', `${callersOf}, by the service's function nearest below it:`, ...rows(callers, busy, top)]),
  ].join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { skip: { type: 'string' }, top: { type: 'string' }, callers: { type: 'string' } },
  });
  const target = positionals[0];
  if (!target)
    throw new Error('Usage: npm run bench:profile -- DIR_OR_FILE [--skip SECONDS] [--top N] [--callers NAME]');
  const file = newestProfile(target);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  console.log(`${file}\n${summarize(profile, Number(values.skip ?? 0), Number(values.top ?? 25), values.callers)}`);
}
