/**
 * Places as index tokens: the earth cut into a grid of latitude-longitude cells at a few sizes, nested (each cell of a
 * size is whole cells of the finer one), each document in one cell of each size. A radius query unites the postings
 * of the cells wholly inside the circle, of whatever size, and of the finest cells it crosses; only the documents of
 * those crossed cells have their distance measured. The cost follows the documents near the circle's edge, never
 * the documents elsewhere.
 */

/** Cell edges in degrees, finest first: about 5.5, 22, 111 and 555 km of latitude. */
const LEVELS = [0.05, 0.2, 1, 5] as const;

/** The most cells a query unites at one size before it takes the next, coarser one. */
const MAX_CELLS = 48;

/** How many of the cells the circle crosses fit in its radius, at most: the finest size its edge is cut to. */
const EDGE_CELLS_PER_RADIUS = 20;

/** The most cells a covering unites before its edge is cut coarser. */
const MAX_COVERING = 300;

const EARTH_RADIUS_KM = 6371.0088;
const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM;

export interface Point {
  latitude: number;
  longitude: number;
}

/** The cell of a point at a size: its row (from the south pole) and column (from the antimeridian). */
function cellOf(level: number, point: Point): [number, number] {
  const size = LEVELS[level]!;
  const rows = Math.round(180 / size);
  const columns = Math.round(360 / size);
  return [
    Math.min(rows - 1, Math.floor((point.latitude + 90) / size)),
    Math.floor((point.longitude + 180) / size) % columns,
  ];
}

const cellName = (level: number, row: number, column: number): string => `${level}:${row}:${column}`;

/** The cells a document at `point` is in: one per size. */
export function cellsOf(point: Point): string[] {
  return LEVELS.map((_, level) => cellName(level, ...cellOf(level, point)));
}

/** Which points of a circle a set of cells holds: those of `inside` lie within it, those of `edge` may or may not. */
export interface Covering {
  inside: string[];
  edge: string[];
}

/**
 * The cells whose union holds every point within `radiusKm` of `center`: at the finest size that needs no more than
 * MAX_CELLS of them for the circle's bounding box, those wholly within the circle kept as `inside`, those it
 * crosses taken apart into the cells of the finer sizes, down to the finest, whose crossed cells are the `edge`.
 * A cell wholly outside is dropped.
 */
export function coverCircle(center: Point, radiusKm: number): Covering {
  const key = `${center.latitude},${center.longitude},${radiusKm}`;
  let covering = coverings.get(key);
  if (!covering) {
    if (coverings.size >= KEPT_COVERINGS) coverings.delete(coverings.keys().next().value!);
    coverings.set(key, (covering = computeCovering(center, radiusKm)));
  }
  return covering;
}

/** The coverings worked out lately, oldest first (the same places are asked for again and again). */
const coverings = new Map<string, Covering>();
const KEPT_COVERINGS = 1000;

function computeCovering(center: Point, radiusKm: number): Covering {
  // Edge cells no finer than a twentieth of the radius (a few dozen around the circle), and coarser where even those
  // would be too many (near a pole, where cells narrow).
  let finest = Math.max(
    0,
    LEVELS.findIndex((size) => size * KM_PER_DEGREE >= radiusKm / EDGE_CELLS_PER_RADIUS),
  );
  for (; ; finest++) {
    const covering = coverDownTo(center, radiusKm, finest);
    if (covering.inside.length + covering.edge.length <= MAX_COVERING || finest >= LEVELS.length - 1) return covering;
  }
}

function coverDownTo(center: Point, radiusKm: number, finest: number): Covering {
  const covering: Covering = { inside: [], edge: [] };
  const visit = (level: number, row: number, column: number): void => {
    const size = LEVELS[level]!;
    const south = row * size - 90;
    const west = column * size - 180;
    if (nearestKm(center, south, south + size, west, west + size) > radiusKm) return;
    const corners = [
      [south, west],
      [south, west + size],
      [south + size, west],
      [south + size, west + size],
    ] as const;
    if (corners.every(([latitude, longitude]) => distanceKm(center, { latitude, longitude }) <= radiusKm)) {
      covering.inside.push(cellName(level, row, column));
    } else if (level <= finest) {
      covering.edge.push(cellName(level, row, column));
    } else {
      const ratio = Math.round(size / LEVELS[level - 1]!);
      for (let r = 0; r < ratio; r++)
        for (let c = 0; c < ratio; c++) visit(level - 1, row * ratio + r, column * ratio + c);
    }
  };
  const [level, rows, columns] = startingCells(center, radiusKm);
  for (const row of rows) for (const column of columns) visit(level, row, column);
  return covering;
}

/** The size to start a covering at, and the rows and columns of its cells over the circle's bounding box. */
function startingCells(center: Point, radiusKm: number): [number, number[], number[]] {
  const latitudeSpan = radiusKm / KM_PER_DEGREE;
  const south = Math.max(-90, center.latitude - latitudeSpan);
  const north = Math.min(90, center.latitude + latitudeSpan);
  // The widest the circle is east to west: at the parallel nearest a pole within it.
  const widest = Math.max(Math.abs(south), Math.abs(north));
  const cosine = Math.cos((Math.min(widest, 89.999) * Math.PI) / 180);
  const longitudeSpan = north >= 90 || south <= -90 ? 180 : Math.min(180, latitudeSpan / cosine);
  for (let level = 0; ; level++) {
    const size = LEVELS[level]!;
    const columns = Math.round(360 / size);
    const [firstRow] = cellOf(level, { latitude: south, longitude: 0 });
    const [lastRow] = cellOf(level, { latitude: north, longitude: 0 });
    const first = Math.floor((center.longitude - longitudeSpan + 180) / size);
    const across =
      longitudeSpan >= 180
        ? columns
        : Math.min(columns, Math.floor((center.longitude + longitudeSpan + 180) / size) - first + 1);
    if ((lastRow - firstRow + 1) * across > MAX_CELLS && level < LEVELS.length - 1) continue;
    const rows = Array.from({ length: lastRow - firstRow + 1 }, (_, i) => firstRow + i);
    return [
      level,
      rows,
      [...new Set(Array.from({ length: across }, (_, i) => (((first + i) % columns) + columns) % columns))],
    ];
  }
}

/**
 * The least distance in kilometres from `center` to any point of the cell between two parallels and two meridians:
 * for the least longitude gap to the cell, the latitude nearest along the great circle, kept within the cell.
 */
function nearestKm(center: Point, south: number, north: number, west: number, east: number): number {
  const toRadians = Math.PI / 180;
  const gapTo = (meridian: number) => Math.abs(((center.longitude - meridian + 540) % 360) - 180);
  const within = (center.longitude - west + 360) % 360 <= east - west;
  const gap = within ? 0 : Math.min(gapTo(west), gapTo(east)) * toRadians;
  const latitude = center.latitude * toRadians;
  // sin φ1 sin φ2 + cos φ1 cos φ2 cos g is greatest at this φ2, and falls away from it on either side.
  const best = Math.atan2(Math.sin(latitude), Math.cos(latitude) * Math.cos(gap));
  const other = Math.min(north * toRadians, Math.max(south * toRadians, best));
  const cosine = Math.sin(latitude) * Math.sin(other) + Math.cos(latitude) * Math.cos(other) * Math.cos(gap);
  return EARTH_RADIUS_KM * Math.acos(Math.min(1, Math.max(-1, cosine)));
}

/**
 * Whether points are within `radiusKm` of `center`, by the haversine formula with the centre's part worked out once
 * and no inverse sine: the same answer as `distanceKm(center, point) <= radiusKm`, for many points at less cost.
 */
export function withinRadius(center: Point, radiusKm: number): (latitude: number, longitude: number) => boolean {
  const toRadians = Math.PI / 180;
  const cosCenter = Math.cos(center.latitude * toRadians);
  const most = Math.sin(Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM) / 2) ** 2;
  return (latitude, longitude) => {
    const h =
      Math.sin(((latitude - center.latitude) * toRadians) / 2) ** 2 +
      cosCenter * Math.cos(latitude * toRadians) * Math.sin(((longitude - center.longitude) * toRadians) / 2) ** 2;
    return Math.min(1, h) <= most;
  };
}

/** The great-circle distance between two points in kilometres (haversine). */
export function distanceKm(a: Point, b: Point): number {
  const toRadians = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * toRadians;
  const dLng = (b.longitude - a.longitude) * toRadians;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * toRadians) * Math.cos(b.latitude * toRadians) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
