import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';

/** Lengths every account's password keeps to (the sign-in forms refuse longer input before checking it). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/**
 * zxcvbn's estimate (the zxcvbn-ts port: its common-password list of ~40,000 entries, common names and words,
 * keyboard walks, repeats, sequences, dates, l33t), loaded once. Score 3 of 4 is its "safely unguessable"
 * level: about 10^8 guesses or more, out of reach of an online attack and costly offline against argon2id.
 */
const estimator = new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
const MIN_SCORE = 3;

/**
 * Why a password a user chose is refused, or null: too short or long, or guessable (a common password, a
 * repeat like `aaaaaaaaaaaa`, a keyboard walk, or built from the account's own e-mail, name or handle).
 */
export function passwordProblem(password: string, account: string[]): 'length' | 'guessable' | null {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return 'length';
  return estimator.check(password, account.filter(Boolean)).score < MIN_SCORE ? 'guessable' : null;
}
