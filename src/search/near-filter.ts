/**
 * A filter of documents within a radius of a point, for any resource whose documents carry their place as grid-cell
 * tokens (geo-cells.ts) and their coordinates as two numbers: the cells the circle covers find them, and the distance
 * of each document in the cells it crosses decides.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import { FACETS } from './fields.js';
import { coverCircle, withinRadius } from './geo-cells.js';
import type { OrderedDocuments } from './ordered-documents.js';
import type { PostingIndex } from './posting-index.js';
import type { Filter } from './search-index.js';

export interface Near {
  latitude: number;
  longitude: number;
  radiusKm: number;
}

/**
 * The documents within `near.radiusKm` of the point, their coordinates read from the numbers `latitude` and
 * `longitude` (IndexedItem.extra columns). `also`: a token whose documents match wherever they are (never measured);
 * `except`: a token whose documents never match.
 */
export function nearFilter(
  near: Near,
  columns: { latitude: number; longitude: number },
  tokens: { also?: string; except?: string } = {},
): Filter {
  const { inside, edge } = coverCircle(near, near.radiusKm);
  return {
    any: [...[...inside, ...edge].map(FACETS.cell), ...(tokens.also ? [tokens.also] : [])],
    none: tokens.except ? [tokens.except] : [],
    refine: (docs, result) => refineNear(docs, result, near, edge, columns, tokens.also),
  };
}

/**
 * The exact rule, which the cells only approach: the distance of each document in the cells the circle crosses
 * (`edgeCells`; one let in by the `also` token is not measured). Removes from `result` in place.
 */
function refineNear(
  docs: OrderedDocuments,
  result: Bitmap,
  near: Near,
  edgeCells: readonly string[],
  columns: { latitude: number; longitude: number },
  also: string | undefined,
): void {
  const edge = edgeCells.flatMap((cell) => docs.index.posting(FACETS.cell(cell)) ?? []);
  if (edge.length === 0) return;
  const measured = RoaringBitmap32.and(result, edge.length === 1 ? edge[0]! : RoaringBitmap32.orMany(edge));
  const exempt = also ? docs.index.posting(also) : undefined;
  if (exempt) measured.andNotInPlace(exempt);
  const within = withinRadius(near, near.radiusKm);
  const outside: number[] = [];
  for (const doc of measured.toUint32Array())
    if (!within(docs.extra(doc, columns.latitude), docs.extra(doc, columns.longitude))) outside.push(doc);
  if (outside.length > 0) result.removeMany(outside);
}

/** A point a facet value names, `<latitude>,<longitude>`. */
interface NamedPoint {
  latitude: number;
  longitude: number;
  value: string;
}

/** Each index's points by latitude, made again when the kind gains values (tokens are never taken out). */
const pointsOf = new WeakMap<PostingIndex, { kind: string; count: number; points: NamedPoint[] }>();

function pointsByLatitude(index: PostingIndex, kind: string): NamedPoint[] {
  const values = index.facetValues(kind);
  const kept = pointsOf.get(index);
  if (kept && kept.kind === kind && kept.count === values.size) return kept.points;
  const points = [...values.keys()]
    .map((value) => {
      const [latitude, longitude] = value.split(',').map(Number) as [number, number];
      return { latitude, longitude, value };
    })
    .sort((a, b) => a.latitude - b.latitude);
  pointsOf.set(index, { kind, count: values.size, points });
  return points;
}

/**
 * The documents within `near.radiusKm` of the point, for a resource whose documents sit on shared points (a member's
 * town, kept to one decimal of a degree): each point is a facet value `<latitude>,<longitude>` of `kind`, and a search
 * unites the postings of the points within the radius. Each point is measured once; no document is read.
 */
export function nearPointsFilter(near: Near, kind: string): Filter {
  const within = withinRadius(near, near.radiusKm);
  // A degree of latitude is ~111 km everywhere: the band of latitudes a point within the radius can have.
  const band = near.radiusKm / 111 + 0.01;
  return {
    refine: (docs, result) => {
      const points = pointsByLatitude(docs.index, kind);
      let low = 0;
      for (let high = points.length; low < high; ) {
        const middle = (low + high) >>> 1;
        if (points[middle]!.latitude < near.latitude - band) low = middle + 1;
        else high = middle;
      }
      const inside: Bitmap[] = [];
      const single: number[] = [];
      for (let i = low; i < points.length && points[i]!.latitude <= near.latitude + band; i++) {
        const point = points[i]!;
        if (!within(point.latitude, point.longitude)) continue;
        const posting = docs.index.heldPosting(FACETS.point(point.value));
        if (typeof posting === 'number') single.push(posting);
        else if (posting) inside.push(posting);
      }
      const union = RoaringBitmap32.orMany(inside);
      if (single.length > 0) union.addMany(single);
      result.andInPlace(union);
    },
  };
}
