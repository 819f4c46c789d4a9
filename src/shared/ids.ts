import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A prefixed, time-ordered id (`evt_` + 10 time characters + 16 random ones, Crockford base32),
 * so that ids sort by creation and never reveal a count. `random` lets the demo generator be deterministic.
 */
export function timeOrderedId(
  prefix: string,
  nowMs: number,
  random: () => number = () => randomBytes(1)[0]! / 256,
): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[Math.floor(random() * 32)];
  return `${prefix}_${time}${rand}`;
}
