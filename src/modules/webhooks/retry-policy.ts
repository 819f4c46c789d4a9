/**
 * What an attempt means for a delivery and its endpoint: the retry schedule and the disable rule, as pure functions
 * (the dispatcher writes what they decide; test/webhook-retry-policy.test.ts holds them to docs/webhooks.md).
 */

/** The wait after the 1st, 2nd, … failed attempt: ten attempts over about three days (75 h 35 min 5 s). */
export const RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
];
/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/** An answer with a 2xx status; anything else, or no answer, is a failed attempt. */
export const succeeded = (status: number | null): boolean => status !== null && status >= 200 && status < 300;

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/**
 * A delivery after one attempt. `step` is how many retries its schedule has used. It is delivered on a 2xx; it fails
 * for good when the attempt was final (nothing could be sent: its change is no longer kept), when its endpoint was disabled
 * while the attempt was on the wire (`givenUp`), or when the schedule is used up; otherwise it waits for the next
 * delay of the schedule.
 */
export function afterAttempt(
  delivery: { step: number },
  attempt: { status: number | null; final: boolean },
  givenUp: boolean,
  now: number,
): { state: DeliveryState; step: number; nextAttemptAt: number | null } {
  if (succeeded(attempt.status)) return { state: 'delivered', step: delivery.step, nextAttemptAt: null };
  if (attempt.final || givenUp || delivery.step >= RETRY_DELAYS_MS.length)
    return { state: 'failed', step: delivery.step, nextAttemptAt: null };
  return { state: 'pending', step: delivery.step + 1, nextAttemptAt: now + RETRY_DELAYS_MS[delivery.step]! };
}

/**
 * An endpoint after a round of attempts: failing since its first failed round without a success (a success clears
 * it), and disabled once that has lasted `DISABLE_AFTER_MS`.
 */
export function endpointAfterRound(
  failingSince: number | null,
  statuses: Array<number | null>,
  now: number,
): { failingSince: number | null; disable: boolean } {
  const since = statuses.some(succeeded) ? null : (failingSince ?? now);
  return { failingSince: since, disable: since !== null && now - since >= DISABLE_AFTER_MS };
}
