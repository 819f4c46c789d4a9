/**
 * The typed arrays the indexes keep by document or token number grow by doubling, so that appending one value at a
 * time copies each value about once. Grown once in a while, they cost two copies at the moment of growing (the old
 * array until the collector frees it), which at a million documents is 8 MB an array.
 */
type Growing = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/** `values` in an array of the same kind with room for at least `least` values, the new room filled with `fill`. */
export function grown<T extends Growing>(values: T, least: number, fill = 0): T {
  const bigger = new (values.constructor as new (length: number) => T)(Math.max(least, values.length * 2));
  bigger.set(values);
  if (fill !== 0) bigger.fill(fill, values.length);
  return bigger;
}

/**
 * Room for `length` values restored from a saved copy, and a sixteenth more: the writes that follow a start append
 * without copying the array at once (room never written to is never touched, so it takes no memory until used).
 */
export const roomFor = (length: number): number => length + Math.max(1024, length >>> 4);
