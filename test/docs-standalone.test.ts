import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository's own text files (benchmark results are records of past runs, kept as they were written). */
const files = execFileSync('git', ['ls-files'], { encoding: 'utf8' }).split('\n')
  .filter((file) => /\.(md|ts|eta|json|css)$/.test(file) && !file.startsWith('bench/results/') && fs.existsSync(file));

/**
 * The docs stand alone: nothing in the repository sends a reader to files outside it (the specification and the
 * decisions the team worked from are described in docs/, in the project's own words), and every relative link in the
 * docs and the README reaches a file that exists.
 */
describe('docs that stand alone', () => {
  it('point at no file outside the repository', () => {
    const outside = files.flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').flatMap((line, i) =>
      /\.\.\/shared\/(?:SPEC|DECISIONS|STYLE|reference)|(?<![\w/.-])(?:SPEC|DECISIONS|STYLE)\.md/.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 120)}`] : []));
    expect(outside).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md') && (f === 'README.md' || f.startsWith('docs/') || f.startsWith('sdk/')))) {
      for (const [, target] of fs.readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(?:[a-z]+:|#)/.test(target!)) continue;
        const resolved = path.normalize(path.join(path.dirname(file), target!.split('#')[0]!));
        if (resolved.startsWith('..') || !fs.existsSync(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
