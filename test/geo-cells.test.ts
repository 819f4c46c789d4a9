/**
 * The covering of a circle by grid cells (src/search/geo-cells.ts), held to the distance of random points: every point
 * within the radius is in a cell of the covering, and every point in an `inside` cell is within it; near the poles
 * and across the antimeridian too.
 */
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../src/demo/random.js';
import { cellsOf, coverCircle, distanceKm } from '../src/search/geo-cells.js';

describe('covering a circle', () => {
  it('holds every point within the radius, and only such points in its inside cells', () => {
    const rnd = new SeededRandom(3);
    const centers = [
      { latitude: 37.5, longitude: 127 },
      { latitude: 0, longitude: 179.95 },
      { latitude: 88.5, longitude: 10 },
      { latitude: -60, longitude: -179.99 },
      ...Array.from({ length: 20 }, () => ({ latitude: rnd.next() * 170 - 85, longitude: rnd.next() * 360 - 180 })),
    ];
    for (const center of centers) {
      for (const radiusKm of [1, 5, 25, 120, 500]) {
        const { inside, edge } = coverCircle(center, radiusKm);
        const [insideSet, all] = [new Set(inside), new Set([...inside, ...edge])];
        expect(inside.length + edge.length, `${JSON.stringify(center)} ${radiusKm}`).toBeLessThanOrEqual(400);
        for (let i = 0; i < 400; i++) {
          // Points around the circle's edge and within it, some beyond.
          const spread = (radiusKm * 1.4) / 111.2;
          const latitude = Math.max(-90, Math.min(90, center.latitude + (rnd.next() * 2 - 1) * spread));
          const longitude =
            ((center.longitude +
              ((rnd.next() * 2 - 1) * spread) / Math.max(0.05, Math.cos((latitude * Math.PI) / 180)) +
              540) %
              360) -
            180;
          const point = { latitude, longitude };
          const cells = cellsOf(point);
          const within = distanceKm(center, point) <= radiusKm;
          if (within)
            expect(
              cells.some((c) => all.has(c)),
              `${JSON.stringify(center)} ${radiusKm} ${JSON.stringify(point)}`,
            ).toBe(true);
          if (cells.some((c) => insideSet.has(c)))
            expect(within, `${JSON.stringify(center)} ${radiusKm} ${JSON.stringify(point)}`).toBe(true);
        }
      }
    }
  });
});
