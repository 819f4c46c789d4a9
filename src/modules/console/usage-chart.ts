/**
 * Stacked bar charts of calls by status class, as SVG geometry the usage template draws (no JavaScript, no
 * inline styles: colours are presentation attributes). Every chart also comes with its numbers as a table.
 */
import type { StatusClass } from '../apps/usage.js';

export const CLASSES: Array<{ cls: StatusClass; colour: string }> = [
  { cls: '2xx', colour: '#1e7a3a' },
  { cls: '3xx', colour: '#5f6368' },
  { cls: '4xx', colour: '#b06000' },
  { cls: '5xx', colour: '#b3261e' },
  { cls: '429', colour: '#6b3fa0' },
];

export interface Chart {
  width: number;
  height: number;
  max: number;
  bars: Array<{
    label: string;
    total: number;
    rects: Array<{ x: number; y: number; w: number; h: number; colour: string }>;
  }>;
  ticks: Array<{ x: number; label: string }>;
}

/** `buckets` oldest first; `label` names a bucket; every `tickEvery`-th bucket gets an axis label. */
export function stackedBars(
  buckets: Array<{ at: number; byClass: Record<StatusClass, number> }>,
  label: (at: number) => string,
  tickEvery: number,
): Chart {
  const width = 720;
  const height = 160;
  const plot = height - 20;
  const slot = width / buckets.length;
  const max = Math.max(1, ...buckets.map((b) => Object.values(b.byClass).reduce((a, c) => a + c, 0)));
  const bars = buckets.map((bucket, i) => {
    let y = plot;
    const rects = CLASSES.flatMap(({ cls, colour }) => {
      const h = (bucket.byClass[cls] / max) * (plot - 4);
      if (h <= 0) return [];
      y -= h;
      return [
        {
          x: Math.round(i * slot + 1),
          y: Math.round(y * 10) / 10,
          w: Math.max(1, Math.floor(slot - 2)),
          h: Math.max(0.5, Math.round(h * 10) / 10),
          colour,
        },
      ];
    });
    return { label: label(bucket.at), total: Object.values(bucket.byClass).reduce((a, c) => a + c, 0), rects };
  });
  const ticks = buckets.flatMap((bucket, i) =>
    i % tickEvery === 0 ? [{ x: Math.round(i * slot + 1), label: label(bucket.at) }] : [],
  );
  return { width, height, max, bars, ticks };
}
