/** A counting window aligned to the clock (minute, hour, UTC day). */
export interface Window {
  name: string;
  limit: number;
  ms: number;
}

export interface WindowState {
  window: Window;
  /** Requests counted in the current window, this one included when admitted. */
  count: number;
  remaining: number;
  /** When the window resets, epoch ms. */
  resetAt: number;
}

export interface ConsumeResult {
  allowed: boolean;
  windows: WindowState[];
  /** The window that refused the request (when not allowed). */
  blocking?: WindowState;
}

/**
 * Counts requests against several windows at once: either every window has room and all are counted,
 * or none is counted (a refused request consumes nothing).
 */
export interface RateLimitStore {
  /** In-process counters answer at once; a shared store answers with a promise. */
  consume(key: string, windows: Window[], now: number): ConsumeResult | Promise<ConsumeResult>;
  /** Gives back one admitted request (used for 304 responses, which do not count). */
  refund(key: string, windows: Window[], now: number): Promise<void>;
  /**
   * Null while the store works as configured; otherwise what it does instead (shown by /readyz). Asks the
   * store's own dependency (Redis answers a PING) rather than waiting for a request to find it gone.
   */
  check(): Promise<string | null>;
  close(): Promise<void>;
}

export const windowStart = (window: Window, now: number) => Math.floor(now / window.ms) * window.ms;

export function counterKey(key: string, window: Window, now: number): string {
  return `${key}|${window.name}|${windowStart(window, now)}`;
}

export function stateOf(window: Window, count: number, now: number): WindowState {
  return { window, count, remaining: Math.max(0, window.limit - count), resetAt: windowStart(window, now) + window.ms };
}

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
