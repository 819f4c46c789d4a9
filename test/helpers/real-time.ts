/**
 * The suite's real waits, each named for why it cannot be an event or the test clock (docs/development.md, "Waiting
 * in tests"). The linter refuses a timer wait written anywhere else under test/ (eslint.config.js), so a new one is
 * a call here that says its reason:
 * - `poll`: between two looks at something another process, thread or connection changes;
 * - `quiet`: a window that shows nothing more arrives (or lets work after an answer finish);
 * - `pace`: a load or a kill paced as a drill's clients and faults come;
 * - `clock`: a real clock a server process or a service keeps (a minute's window, a reconnect's backoff).
 */
export type WhyRealTime = 'poll' | 'quiet' | 'pace' | 'clock';

export function realWait(ms: number, _why: WhyRealTime): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
