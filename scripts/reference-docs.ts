/**
 * `npm run docs:generate`: writes the pages that are read off the code, so they say what it does: docs/configuration.md
 * and .env.example from the settings table (src/settings.ts), docs/cli.md from the operator commands (src/cli/main.ts).
 * test/reference-docs.test.ts fails when a file is not what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../src/cli/main.js';
import { SETTINGS, type Setting } from '../src/settings.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Markdown as plain text: code marks and emphasis dropped. */
const plain = (md: string) => md.replace(/`/g, '').replace(/\*\*/g, '').trim();

/** How the docs write a setting's default. */
const defaultOf = (s: Setting<unknown>) => s.defaultShown ?? `\`${String(s.default)}\``;

function commented(line: string, width = 116): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(/\s+/)) {
    if (current && current.length + word.length + 1 > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines.map((l) => `# ${l}`);
}

/** The settings by group, in the table's order. */
function groups(): Map<string, Array<[string, Setting<unknown>]>> {
  const byGroup = new Map<string, Array<[string, Setting<unknown>]>>();
  for (const [name, s] of Object.entries(SETTINGS) as Array<[string, Setting<unknown>]>) {
    if (!byGroup.has(s.group)) byGroup.set(s.group, []);
    byGroup.get(s.group)!.push([name, s]);
  }
  return byGroup;
}

/** docs/configuration.md: every setting, by group, with what it takes, its default and its meaning. */
export function configurationDoc(): string {
  const out = [
    '# Configuration',
    '',
    'Every setting the service reads from its environment. Each is checked at start: a bad value stops the start with a',
    'line naming the setting and what it takes (a line for each bad one). An empty value is the same as none.',
    "`.env.example` holds the same list, commented out, ready to fill in. Traces take OpenTelemetry's own `OTEL_*`",
    'variables, off until `OTEL_EXPORTER_OTLP_ENDPOINT` is set ([deployment.md](deployment.md#traces)).',
    '',
    'This page is written by `npm run docs:generate` from `src/settings.ts`, where each setting is declared once with its',
    'kind, default and meaning; a test fails when it is not current.',
    '',
  ];
  for (const [group, settings] of groups()) {
    out.push(`## ${group}`, '', '| Setting | Takes | Default | Meaning |', '|---|---|---|---|');
    for (const [name, s] of settings) {
      const demo = s.demo === undefined ? '' : ` (\`${s.demo}\` under \`npm run demo\`)`;
      out.push(`| \`${name}\` | ${s.kind.shown} | ${defaultOf(s)}${demo} | ${s.doc} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** .env.example: every setting commented out, with its default where that is a plain value, under its meaning. */
export function envExample(): string {
  const out = [
    '# Every setting of the service, with its default. The service reads them from its environment: copy this file to',
    "# the unit's EnvironmentFile (deploy/systemd/: /etc/svc-open-api/env) or give it to `node --env-file`; a setting",
    '# left commented out takes its default. Written by `npm run docs:generate` from src/settings.ts.',
    '',
  ];
  for (const [group, settings] of groups()) {
    out.push(`# --- ${group} ---`, '');
    for (const [name, s] of settings) {
      out.push(...commented(`${plain(s.doc)} (${plain(s.kind.shown)}; default: ${plain(defaultOf(s))})`));
      const value = s.defaultShown !== undefined || typeof s.default === 'function' ? '' : String(s.default);
      out.push(`# ${name}=${value}`, '');
    }
  }
  return out.join('\n');
}

/** docs/cli.md: every operator command, by group, with its usage and what it does. */
export function cliDoc(): string {
  const out = [
    '# Operator CLI',
    '',
    '`npm run cli -- <command> [options]`, with the settings of the environment ([configuration.md](configuration.md)):',
    'the database a command works on is the one `DATABASE_URL` names. `npm run cli -- --help` lists every command,',
    '`npm run cli -- apps --help` (or `help apps`) the commands of one group, and `npm run cli -- <command> --help` one',
    'command. Exit codes: 0 success, 1 failure, 2 a mistake in the command line.',
    '',
    'This page is written by `npm run docs:generate` from the commands themselves (`src/cli/commands/`); a test fails when',
    'it is not current.',
    '',
    '| Command | Does |',
    '|---|---|',
  ];
  for (const command of COMMANDS) out.push(`| \`${command.usage.replace(/\|/g, '\\|')}\` | ${command.summary} |`);
  out.push('');
  return out.join('\n');
}

export const GENERATED: Record<string, () => string> = {
  'docs/configuration.md': configurationDoc,
  '.env.example': envExample,
  'docs/cli.md': cliDoc,
};

if (process.argv[1]?.endsWith('reference-docs.ts')) {
  for (const [file, write] of Object.entries(GENERATED)) {
    fs.writeFileSync(path.join(ROOT, file), write());
    process.stdout.write(`wrote ${file}\n`);
  }
}
