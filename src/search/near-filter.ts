/**
 * A filter of documents within a radius of a point, for any resource whose documents carry their place as grid-cell
 * tokens (geo-cells.ts) and their coordinates as two numbers: the cells the circle covers find them, and the distance
 * of each document in the cells it crosses decides.
 */
import { RoaringBitmap32, type Bitmap } from './bitmaps.js';
import { FACETS } from './fields.js';
import { coverCircle, withinRadius } from './geo-cells.js';
import type { OrderedDocuments } from './ordered-documents.js';
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
