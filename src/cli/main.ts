import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { databaseOpener, parse, UsageError, type Command, type Io } from './command.js';
import {
  appsCreateCommand, appsRevokeKeyCommand, companiesCreateCommand, companiesListCommand, rolesGrantCommand, rolesListCommand, rolesRevokeCommand,
  usersCreateCommand, usersListCommand,
} from './commands/accounts.js';
import {
  appsAuditCommand, appsListCommand, appsRotateKeyCommand, clientsEndPreviousSecretCommand, clientsRotateSecretCommand,
} from './commands/app-credentials.js';
import { demoCommand } from './commands/demo.js';
import { migrateCommand } from './commands/migrate.js';
import { clientsCreateCommand, clientsListCommand, keysRotateCommand } from './commands/oauth.js';
import { searchCheckCommand, searchRebuildCommand } from './commands/search.js';
import { seedDemoCommand } from './commands/seed-demo.js';

export const COMMANDS: Command[] = [
  migrateCommand, seedDemoCommand, demoCommand,
  appsCreateCommand, appsListCommand, appsRotateKeyCommand, appsRevokeKeyCommand, appsAuditCommand,
  usersCreateCommand, usersListCommand, companiesCreateCommand, companiesListCommand, rolesGrantCommand, rolesRevokeCommand, rolesListCommand,
  clientsCreateCommand, clientsListCommand, clientsRotateSecretCommand, clientsEndPreviousSecretCommand, keysRotateCommand,
  searchRebuildCommand, searchCheckCommand,
];

function overview(io: Io): void {
  io.out('Usage: npm run cli -- <command> [options]   (settings come from the environment; see README)');
  io.out('');
  for (const c of COMMANDS) io.out(`  ${c.usage.padEnd(60)} ${c.summary}`);
  io.out('');
  io.out('Add --help after a command for its details.');
}

/** Runs one CLI invocation and returns its exit code (0 ok, 1 failure, 2 usage error). */
export async function runCli(argv: string[], io: Io, env: Record<string, string | undefined> = process.env): Promise<number> {
  const command = COMMANDS.find((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  });
  if (!command) {
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
    // The demo logs readable lines and lets anyone sign up in the console, unless the settings say otherwise.
    config = loadConfig(command.name === 'demo' ? { LOG_FORMAT: 'pretty', CONSOLE_SIGN_UP: 'open', ...env } : env);
    const opener = databaseOpener(config);
    try {
      await command.run(values, { io, config, database: () => opener.get() });
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: Io = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const code = await runCli(process.argv.slice(2), io);
  if (code !== 0) process.exit(code);
}
