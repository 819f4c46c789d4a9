/** What the benchmark's writer (write-client.ts) measures, in a module of its own: the runner imports it without the writer's process handlers. */

/** The writes' latencies in ms, all of them and by kind of write (`WRITE_KINDS`). */
export interface WriteStats {
  count: number;
  failed: number;
  latencies: number[];
  byKind: Record<WriteKind, number[]>;
}

export const WRITE_KINDS = ['job', 'post', 'post with image'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/** The kind of the write sent at `turn` (the order `writer` sends them in). */
export function kindOf(turn: number, jobs: number): WriteKind {
  if (turn % 2 === 0 && jobs > 0) return 'job';
  return turn % 3 === 0 ? 'post with image' : 'post';
}

export const noStats = (): WriteStats => ({
  count: 0,
  failed: 0,
  latencies: [],
  byKind: { job: [], post: [], 'post with image': [] },
});
