import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { demoSettings } from '../settings.js';
import { databaseOpener, parse, UsageError, type Command, type Io } from './command.js';
import {
  appsCreateCommand,
  appsRevokeKeyCommand,
  companiesCreateCommand,
  companiesListCommand,
  rolesGrantCommand,
  rolesListCommand,
  rolesRevokeCommand,
  usersCreateCommand,
  usersDisableCommand,
  usersEnableCommand,
  usersListCommand,
} from './commands/accounts.js';
import {
  appsAuditCommand,
  appsDeleteCommand,
  appsListCommand,
  appsRotateKeyCommand,
  clientsEndPreviousSecretCommand,
  clientsRotateSecretCommand,
} from './commands/app-credentials.js';
import { changesListenCommand } from './commands/changes-listen.js';
import { changesNewEpochCommand } from './commands/changes.js';
import { demoCommand } from './commands/demo.js';
import { dbStatusCommand, migrateCommand } from './commands/migrate.js';
import { clientsCreateCommand, clientsListCommand, keysRotateCommand } from './commands/oauth.js';
import { searchCheckCommand, searchRebuildCommand } from './commands/search.js';
import { seedDemoCommand } from './commands/seed-demo.js';
import { dbBackupCommand, dbRestoreCommand, dbVerifyCommand } from './commands/sqlite-backup.js';
import {
  webhooksDisableCommand,
  webhooksEnableCommand,
  webhooksListCommand,
  webhooksRedeliverCommand,
} from './commands/webhooks.js';

export const COMMANDS: Command[] = [
  migrateCommand,
  dbStatusCommand,
  seedDemoCommand,
  demoCommand,
  appsCreateCommand,
  appsListCommand,
  appsRotateKeyCommand,
  appsRevokeKeyCommand,
  appsAuditCommand,
  appsDeleteCommand,
  usersCreateCommand,
  usersListCommand,
  usersDisableCommand,
  usersEnableCommand,
  companiesCreateCommand,
  companiesListCommand,
  rolesGrantCommand,
  rolesRevokeCommand,
  rolesListCommand,
  clientsCreateCommand,
  clientsListCommand,
  clientsRotateSecretCommand,
  clientsEndPreviousSecretCommand,
  keysRotateCommand,
  searchRebuildCommand,
  searchCheckCommand,
  dbBackupCommand,
  dbVerifyCommand,
  dbRestoreCommand,
  changesNewEpochCommand,
  changesListenCommand,
  webhooksListCommand,
  webhooksDisableCommand,
  webhooksEnableCommand,
  webhooksRedeliverCommand,
];

/** The commands whose name begins with `words` (all of them for none), with a line each. */
function overview(io: Io, words: string[] = []): void {
  const commands = COMMANDS.filter((c) => words.every((w, i) => c.name.split(' ')[i] === w));
  io.out(
    `Usage: npm run cli -- ${words.length ? `${words.join(' ')} ` : ''}<command> [options]   (settings come from the environment: docs/configuration.md)`,
  );
  io.out('');
  for (const c of commands) io.out(`  ${c.usage.padEnd(60)} ${c.summary}`);
  io.out('');
  io.out('Add --help after a command for its details.');
}

/** The words before the first option, when they name a group of commands (`apps`, `clients`): else null. */
function groupOf(argv: string[]): string[] | null {
  const words = argv.slice(argv[0] === 'help' ? 1 : 0).filter((a) => !a.startsWith('-'));
  if (words.length === 0) return null;
  return COMMANDS.some(
    (c) => c.name.split(' ').length > words.length && words.every((w, i) => c.name.split(' ')[i] === w),
  )
    ? words
    : null;
}

/** Runs one CLI invocation and returns its exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(
  argv: string[],
  io: Io,
  env: Record<string, string | undefined> = process.env,
  signal?: AbortSignal,
): Promise<number> {
  const command = COMMANDS.find((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  });
  if (!command) {
    const asked = argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
    const group = groupOf(argv);
    if (group) {
      // A group's help (`apps --help`, `help apps`), or a group without its command (`apps`: a usage error).
      overview(io, group);
      return asked ? 0 : 2;
    }
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      overview(io);
      return argv.length === 0 ? 2 : 0;
    }
    io.err(`Unknown command: ${argv.join(' ')}`);
    overview(io);
    return 2;
  }
  const args = argv.slice(command.name.split(' ').length);
  let config;
  try {
    const values = parse(command, args);
    if (values.help) {
      io.out(`Usage: npm run cli -- ${command.usage}`);
      io.out(command.summary);
      return 0;
    }
    // The demo logs readable lines, lets anyone sign up in the console and serves /metrics, unless the settings say otherwise.
    config = loadConfig(command.name === 'demo' ? { ...demoSettings(), ...env } : env);
    const opener = databaseOpener(config);
    try {
      await command.run(values, { io, config, env, database: () => opener.get(), ...(signal ? { signal } : {}) });
    } finally {
      if (command.name !== 'demo') await opener.close();
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`Error: ${err.message}`);
      io.err(`Usage: npm run cli -- ${command.usage}`);
      return 2;
    }
    io.err(err instanceof ConfigError ? err.message : `Error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** Whether node was asked to run this file, under whatever path: a release is often reached through a symlink. */
function runAsProgram(): boolean {
  const given = process.argv[1];
  if (!given) return false;
  try {
    return import.meta.url === pathToFileURL(fs.realpathSync(given)).href;
  } catch {
    return false;
  }
}

if (runAsProgram()) {
  const io: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const code = await runCli(process.argv.slice(2), io);
  if (code !== 0) process.exit(code);
}
