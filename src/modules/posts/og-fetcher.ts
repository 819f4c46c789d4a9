import type { FastifyBaseLogger } from 'fastify';
import { Parser } from 'htmlparser2';
import { safeFetch, type SafeFetchOptions } from '../../net/safe-fetch.js';

export interface OgCard {
  link: string;
  title: string | null;
  source: string | null;
  image: string | null;
  description: string | null;
}

const clip = (text: string | undefined, max: number) => {
  const value = text?.replace(/\s+/g, ' ').trim();
  return value ? value.slice(0, max) : null;
};

function absoluteHttpUrl(value: string | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Reads og:title, og:description, og:image and og:site_name (with <title> and meta description as fallbacks). */
export function parseOpenGraph(html: string, pageUrl: string, link: string): OgCard {
  const meta: Record<string, string> = {};
  let title = '';
  let inTitle = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title') inTitle = true;
        if (name !== 'meta') return;
        const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
        if (key && attributes.content !== undefined && meta[key] === undefined) meta[key] = attributes.content;
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return {
    link,
    title: clip(meta['og:title'] ?? title, 300),
    description: clip(meta['og:description'] ?? meta.description, 1000),
    image: absoluteHttpUrl(meta['og:image'] ?? meta['og:image:url'], pageUrl),
    source: clip(meta['og:site_name'], 200),
  };
}

/**
 * Fetches a link's Open Graph card. Any failure (blocked address, timeout, not HTML, error status)
 * gives a card with the link and null fields: the post is saved either way.
 */
export class OgFetcher {
  constructor(
    private readonly options: SafeFetchOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  async card(link: string): Promise<OgCard> {
    const empty = { link, title: null, source: null, image: null, description: null };
    try {
      const response = await safeFetch(link, this.options);
      if (response.status < 200 || response.status >= 300 || !/html/i.test(response.contentType)) return empty;
      return parseOpenGraph(response.body.toString('utf8'), response.url, link);
    } catch (err) {
      this.log.info({ link, reason: err instanceof Error ? err.message : String(err) }, 'open graph fetch failed');
      return empty;
    }
  }
}
