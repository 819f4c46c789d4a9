import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** Lengths every account's password keeps to (the sign-in forms refuse longer input before checking it). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/**
 * zxcvbn's estimate (the zxcvbn-ts port: its common-password list of ~40,000 entries, common names and words,
 * keyboard walks, repeats, sequences, dates, l33t), loaded at the first password checked. Its lists take megabytes
 * of the process's memory and its set-up tens of milliseconds, which an instance that serves only the API never needs
 * (bench/results/performance-history.md). Score 3 of 4 is its "safely unguessable" level: about 10^8 guesses or more, out of reach
 * of an online attack and costly offline against argon2id.
 */
let estimator: Promise<ZxcvbnFactory> | null = null;

function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([{ ZxcvbnFactory: Factory }, common]) =>
      new Factory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs }),
    (err: unknown) => {
      estimator = null;
      throw err;
    },
  );
  return estimator;
}

const MIN_SCORE = 3;

/**
 * Why a password a user chose is refused, or null: too short or long, or guessable (a common password, a
 * repeat like `aaaaaaaaaaaa`, a keyboard walk, or built from the account's own e-mail, name or handle).
 */
export async function passwordProblem(password: string, account: string[]): Promise<'length' | 'guessable' | null> {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'length';
  return (await loadEstimator()).check(password, account.filter(Boolean)).score < MIN_SCORE ? 'guessable' : null;
}
