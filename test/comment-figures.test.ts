/**
 * The check `npm run lint` runs on the comments under src/ (scripts/check-comments.ts): a measured figure or an
 * issue's number fails it,
 * a limit the code sets does not, and text in strings and template literals is not a comment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { measuredComments } from '../scripts/check-comments.js';

describe('the measured-figure check on comments (npm run lint)', () => {
  it('finds none in the service', () => {
    expect(measuredComments('src')).toEqual([]);
  });

  it('finds figures in the units of measurements, approximate, as ranges or as what something took, and issue numbers, in any comment form', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-comments-'));
    fs.writeFileSync(
      path.join(dir, 'a.ts'),
      [
        '// a page costs 120 µs of CPU',
        '/** the pipeline: 27,100 → 15,700 req/s */',
        '/*',
        ' * it loads in ~70 ms,',
        ' * a round trip takes 15–25 ms, and the cache held 36 MB more',
        ' */',
        'export const x = 1; // 10% faster',
        '// polls every 250 ms and keeps the first 2 KB; 429s are counted apart',
        "export const s = '~40 ms in a string';",
        'export const t = `~40 ms ${x} and 12 µs in a template`;',
        'export const u = `${`nested ~5 MB`}`; // but 2× here',
        '/** The overlaps of a rotation (issue 14). */',
        '',
      ].join('\n'),
    );
    expect(measuredComments(dir)).toEqual([
      'a.ts:1: // a page costs 120 µs of CPU',
      'a.ts:2: /** the pipeline: 27,100 → 15,700 req/s */',
      'a.ts:4: * it loads in ~70 ms,',
      'a.ts:5: * a round trip takes 15–25 ms, and the cache held 36 MB more',
      'a.ts:7: // 10% faster',
      'a.ts:11: // but 2× here',
      'a.ts:12: /** The overlaps of a rotation (issue 14). */',
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
