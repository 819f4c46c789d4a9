/**
 * The guides of docs/, served as pages at /guides/<name>: the Markdown rendered once, at the first request for it,
 * with links between the guides turned into links between the pages, and links into the source tree (which a
 * reader of the pages does not have) shown as their text.
 */
import fs from 'node:fs';
import { Marked, type Tokens } from 'marked';

const DOCS = new URL('../../../docs/', import.meta.url);

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface Guide {
  name: string;
  title: string;
  html: string;
}

let names: string[] | null = null;

/** The guides there are, by name (`oauth` for docs/oauth.md), in the order of their file names: read once. */
export function guideNames(): string[] {
  names ??= fs.existsSync(DOCS)
    ? fs
        .readdirSync(DOCS)
        .filter((file) => file.endsWith('.md'))
        .map((file) => file.slice(0, -3))
        .sort()
    : [];
  return names;
}

const marked = new Marked({
  gfm: true,
  renderer: {
    link({ href, tokens }: Tokens.Link): string {
      const text = this.parser.parseInline(tokens);
      if (/^(?:https?:|mailto:|#)/.test(href)) return `<a href="${attribute(href)}">${text}</a>`;
      const guide = /^(?:\.\/|\.\.\/docs\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
      if (guide && guideNames().includes(guide[1]!))
        return `<a href="/guides/${guide[1]}${attribute(guide[2] ?? '')}">${text}</a>`;
      return `<span class="source-path">${text}</span>`;
    },
    heading({ tokens, depth }: Tokens.Heading): string {
      const text = this.parser.parseInline(tokens);
      const plain = tokens.map((t) => ('text' in t ? t.text : t.raw)).join('');
      const id = plain
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-');
      return `<h${depth} id="${id}">${text}</h${depth}>\n`;
    },
  },
});

const rendered = new Map<string, Guide>();

/** The guide `name`, rendered; null when there is no such guide. */
export function guide(name: string): Guide | null {
  if (!guideNames().includes(name)) return null;
  let found = rendered.get(name);
  if (!found) {
    const markdown = fs.readFileSync(new URL(`${name}.md`, DOCS), 'utf8');
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? name;
    // The guides name each other as paths (`docs/oauth.md`, "Errors"): each such path becomes a link to its page.
    const html = marked
      .parse(markdown, { async: false })
      .replace(/(?<![\w/."=])docs\/([a-z0-9-]+)\.md\b/g, (path, target: string) =>
        guideNames().includes(target) ? `<a href="/guides/${target}">${path}</a>` : path,
      );
    found = { name, title, html };
    rendered.set(name, found);
  }
  return found;
}
