/**
 * Places as index tokens: the earth cut into a grid of latitude-longitude cells at a few sizes, each document in one
 * cell of each size. A radius query takes the cells of one size that cover the circle's bounding box (the finest
 * size that needs no more than MAX_CELLS of them), whose postings' union holds every document within the radius;
 * the exact distance of those candidates then decides. The cost follows the candidates near the place, never the
 * documents elsewhere.
 */

/** Cell edges in degrees, finest first: about 5.5, 22, 111 and 555 km of latitude. */
const LEVELS = [0.05, 0.2, 1, 5] as const;

/** The most cells a query unites at one size before it takes the next, coarser one. */
const MAX_CELLS = 48;

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;

export interface Point { latitude: number; longitude: number }

/** The cell of a point at a size: its row (from the south pole) and column (from the antimeridian). */
function cellOf(level: number, point: Point): [number, number] {
  const size = LEVELS[level]!;
  const rows = Math.round(180 / size);
  const columns = Math.round(360 / size);
  return [Math.min(rows - 1, Math.floor((point.latitude + 90) / size)), Math.floor((point.longitude + 180) / size) % columns];
}

const cellName = (level: number, row: number, column: number): string => `${level}:${row}:${column}`;

/** The cells a document at `point` is in: one per size. */
export function cellsOf(point: Point): string[] {
  return LEVELS.map((_, level) => cellName(level, ...cellOf(level, point)));
}

/** The cells whose union holds every point within `radiusKm` of `center` (and some beyond it). */
export function cellsCovering(center: Point, radiusKm: number): string[] {
  const latitudeSpan = radiusKm / KM_PER_DEGREE;
  const south = Math.max(-90, center.latitude - latitudeSpan);
  const north = Math.min(90, center.latitude + latitudeSpan);
  // The widest the circle is east to west: at the parallel nearest a pole within it.
  const widest = Math.max(Math.abs(south), Math.abs(north));
  const cosine = Math.cos((Math.min(widest, 89.999) * Math.PI) / 180);
  const longitudeSpan = north >= 90 || south <= -90 ? 180 : Math.min(180, latitudeSpan / cosine);
  for (let level = 0; level < LEVELS.length; level++) {
    const size = LEVELS[level]!;
    const columns = Math.round(360 / size);
    const [firstRow] = cellOf(level, { latitude: south, longitude: 0 });
    const [lastRow] = cellOf(level, { latitude: north, longitude: 0 });
    const across = longitudeSpan >= 180 ? columns : Math.floor((center.longitude + longitudeSpan + 180) / size) - Math.floor((center.longitude - longitudeSpan + 180) / size) + 1;
    const count = (lastRow - firstRow + 1) * Math.min(across, columns);
    if (count > MAX_CELLS && level < LEVELS.length - 1) continue;
    const firstColumn = Math.floor((center.longitude - longitudeSpan + 180) / size);
    const cells = new Set<string>();
    for (let row = firstRow; row <= lastRow; row++) {
      for (let i = 0; i < Math.min(across, columns); i++) cells.add(cellName(level, row, (((firstColumn + i) % columns) + columns) % columns));
    }
    return [...cells];
  }
  return [];
}

/** The great-circle distance between two points in kilometres (haversine). */
export function distanceKm(a: Point, b: Point): number {
  const toRadians = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * toRadians;
  const dLng = (b.longitude - a.longitude) * toRadians;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * toRadians) * Math.cos(b.latitude * toRadians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
