import { spawn, type ChildProcess } from 'node:child_process';
import { realWait } from './real-time.js';

/**
 * The real server as its own process at `base()`, compiled as `npm start` runs it (`dist/server.js`, built once for the
 * drills by compiled-service.ts), started with `env` on top of this one's, and killed with SIGKILL: what a crash test
 * does to it, again and again, on the same data. `nodeFlags` go to node (`serviceNodeFlags()`: npm start's heap limits);
 * `from` runs another checkout's entry instead (the previous release's `src/server.ts` through tsx, say).
 */
export function serverProcess(
  base: () => string,
  env: () => Record<string, string>,
  nodeFlags: string[] = [],
  from: { cwd: string; script: string } = { cwd: process.cwd(), script: 'dist/server.js' },
) {
  let child: ChildProcess | null = null;
  /** Sends `signal` and waits until the process is gone. */
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  return {
    get running(): boolean {
      return child !== null;
    },
    /** The running server's process id (undefined when it is not running). */
    get pid(): number | undefined {
      return child?.pid;
    },
    /** Starts it and waits until `/readyz` answers (30 s at most). */
    async start(): Promise<void> {
      child = spawn(process.execPath, [...nodeFlags, from.script], {
        cwd: from.cwd,
        env: { ...process.env, ...env() },
        stdio: 'ignore',
      });
      for (let i = 0; i < 300; i++) {
        if (
          await fetch(`${base()}/readyz`).then(
            (r) => r.ok,
            () => false,
          )
        )
          return;
        await realWait(100, 'poll');
      }
      throw new Error('the server did not start');
    },
    /** How it ended: null while it runs. */
    get exitCode(): number | null {
      return child?.exitCode ?? null;
    },
    /** SIGTERM (a graceful stop: it saves its search indexes), and waits until it is gone. */
    stop: () => end('SIGTERM'),
    /** SIGKILL, and waits until it is gone. */
    kill: () => end('SIGKILL'),
  };
}
