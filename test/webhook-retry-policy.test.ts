import { describe, expect, it } from 'vitest';
import {
  afterAttempt,
  DISABLE_AFTER_MS,
  endpointAfterRound,
  RETRY_DELAYS_MS,
  succeeded,
} from '../src/modules/webhooks/retry-policy.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');
const HOUR = 3_600_000;

describe('the webhook retry schedule', () => {
  it('makes ten attempts over 75 h 35 min 5 s: at once, then after each delay of the schedule', () => {
    expect(RETRY_DELAYS_MS).toHaveLength(9);
    expect(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBe(75 * HOUR + 35 * 60_000 + 5_000);
    let delivery = { step: 0 };
    let at = NOW;
    const times = [at];
    for (;;) {
      const next = afterAttempt(delivery, { status: 500, final: false }, false, at);
      if (next.state !== 'pending') {
        expect(next).toEqual({ state: 'failed', step: 9, nextAttemptAt: null });
        break;
      }
      at = next.nextAttemptAt!;
      times.push(at);
      delivery = { step: next.step };
    }
    expect(times).toHaveLength(10);
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(RETRY_DELAYS_MS);
  });

  it('delivers on any 2xx and counts everything else, no answer included, as a failed attempt', () => {
    expect([200, 204, 299].map(succeeded)).toEqual([true, true, true]);
    expect([null, 199, 301, 400, 410, 500].map(succeeded)).toEqual([false, false, false, false, false, false]);
    expect(afterAttempt({ step: 3 }, { status: 204, final: false }, false, NOW)).toEqual({
      state: 'delivered',
      step: 3,
      nextAttemptAt: null,
    });
    expect(afterAttempt({ step: 3 }, { status: null, final: false }, false, NOW)).toEqual({
      state: 'pending',
      step: 4,
      nextAttemptAt: NOW + RETRY_DELAYS_MS[3]!,
    });
  });

  it('gives a delivery up at once when nothing could be sent, or its endpoint was disabled during the attempt', () => {
    expect(afterAttempt({ step: 0 }, { status: null, final: true }, false, NOW)).toEqual({
      state: 'failed',
      step: 0,
      nextAttemptAt: null,
    });
    expect(afterAttempt({ step: 2 }, { status: 503, final: false }, true, NOW)).toEqual({
      state: 'failed',
      step: 2,
      nextAttemptAt: null,
    });
    // A success during that attempt still counts.
    expect(afterAttempt({ step: 2 }, { status: 200, final: false }, true, NOW).state).toBe('delivered');
  });
});

describe('the webhook disable rule', () => {
  it('marks an endpoint failing from its first round without a success, and clears it on any success', () => {
    expect(endpointAfterRound(null, [500, null], NOW)).toEqual({ failingSince: NOW, disable: false });
    expect(endpointAfterRound(NOW - HOUR, [500], NOW)).toEqual({ failingSince: NOW - HOUR, disable: false });
    expect(endpointAfterRound(NOW - HOUR, [500, 200], NOW)).toEqual({ failingSince: null, disable: false });
  });

  it('disables an endpoint whose every attempt has failed for three days', () => {
    expect(DISABLE_AFTER_MS).toBe(72 * HOUR);
    expect(endpointAfterRound(NOW - DISABLE_AFTER_MS + 1, [500], NOW).disable).toBe(false);
    expect(endpointAfterRound(NOW - DISABLE_AFTER_MS, [500], NOW)).toEqual({
      failingSince: NOW - DISABLE_AFTER_MS,
      disable: true,
    });
    expect(endpointAfterRound(NOW - 4 * 24 * HOUR, [204], NOW)).toEqual({ failingSince: null, disable: false });
  });
});
