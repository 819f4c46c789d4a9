/** The service's mark: a feed of three lines in a rounded square (the reference's logo, the pages' icon). */
export const mark = (square: string, lines: string) =>
  `<rect width="32" height="32" rx="7" fill="${square}"/>` +
  [
    [8, 18],
    [14.25, 13],
    [20.5, 16],
  ]
    .map(([y, width]) => `<rect x="7" y="${y}" width="${width}" height="3.5" rx="1.75" fill="${lines}"/>`)
    .join('');

/** The icon, in the sign-in pages' blue: /favicon.svg, and the reference's. */
export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${mark('#1a5fd0', '#fff')}</svg>`;
