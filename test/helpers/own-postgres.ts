import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/free-port.js';

/** The directory of the machine's PostgreSQL programs (initdb, pg_ctl), or null where there are none. */
export function postgresPrograms(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const version = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version && path.join(root, version, 'bin');
  return bin && fs.existsSync(path.join(bin, 'pg_ctl')) ? bin : null;
}

const asRoot = process.getuid?.() === 0;

/**
 * A PostgreSQL server of the test's own: its own data directory and port, started and stopped as the test wants
 * (`restart`, `stop`, `start`), so that faults done to it touch no other test. PostgreSQL refuses to run as root,
 * so under root (CI) its programs run as the `postgres` user.
 */
export async function ownPostgres(bin: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-own-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const run = (program: string, args: string[]) => {
    const command = path.join(bin, program);
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, {
      stdio: 'pipe',
      timeout: 60_000,
    });
  };
  fs.chmodSync(dir, 0o755);
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const ctl = (action: 'start' | 'stop' | 'restart') =>
    run('pg_ctl', [
      '-D',
      data,
      '-w',
      '-t',
      '60',
      '-m',
      'fast',
      '-l',
      path.join(dir, 'server.log'),
      ...(action === 'stop' ? [] : ['-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`]),
      action,
    ]);
  ctl('start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => ctl('restart'),
    stop: () => ctl('stop'),
    start: () => ctl('start'),
    async close() {
      try {
        ctl('stop');
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
