import { ApiError } from '../shared/api-error.js';
import type { Locale } from '../shared/locale.js';

/** The language of the resources in the change feed: the service's default, as a read without Accept-Language gets. */
export const FEED_LOCALE: Locale = 'ko';

/** A public read's result, or null when the resource is not public (any more): a 404 of the API. */
export async function publicOrNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 404) return null;
    throw err;
  }
}
