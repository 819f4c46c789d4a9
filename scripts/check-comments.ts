/**
 * Fails when a comment under DIR (default src) carries a measurement (`~40 ms`, `27,100 req/s`, `10-35%`, `2×`) or
 * cites an issue by number. npm run lint:comments [DIR]; part of `npm run lint`.
 *
 * Comments say why the code is as it is. What it was measured to cost goes stale at the next change and belongs
 * where it is dated and its command given: docs/performance.md and bench/results/. A limit the code sets is named
 * by its constant instead of restated. An issue number means nothing to a reader of the code (and the tracker is not
 * the repository's); the comment says what the issue asked. Prints each comment line that carries one and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const NUMBER = String.raw`\d[\d,.]*`;
const RANGE = String.raw`${NUMBER}\s?[-–]\s?${NUMBER}`;
const UNIT = String.raw`(?:[µn]s|ms|s|seconds?|minutes?|[KMG]i?B|kB|bytes|req\/s|%|×)`;
/**
 * A measurement: a figure in a unit only measurements take (µs, ns, req/s, a percentage, a ratio), or a figure in any
 * unit given as approximate (`~40 ms`), as a range (`15–25 ms`), or as what something took, cost or held. A limit the
 * code sets (`every 250 ms`, `the first 2 KB`) is a fact of the code and passes.
 */
const MEASUREMENTS = [
  new RegExp(String.raw`(?<![\w.])(?:${RANGE}|${NUMBER})\s?(?:[µn]s|req\/s|%|×)(?![\w/])`),
  new RegExp(String.raw`(?:~|\babout |\baround )${NUMBER}\s?${UNIT}(?![\w/])`),
  new RegExp(String.raw`(?<![\w.])${RANGE}\s?${UNIT}(?![\w/])`),
  new RegExp(
    String.raw`\b(?:took|takes|cost|costs|held|holds|measured)\b[^.;:]*?(?<![\w.])${NUMBER}\s?${UNIT}(?![\w/])`,
  ),
  /\b[Ii]ssues? #?\d+/,
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every comment of a file's source, with the line it starts on. */
function commentsOf(text: string): { line: number; text: string }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: { line: number; text: string }[] = [];
  // Comments come in order of position: the line is counted on from the last one.
  let line = 1;
  let counted = 0;
  const lineAt = (position: number): number => {
    for (; counted < position; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ line: lineAt(scanner.getTokenStart()), text: scanner.getTokenText() });
    } else if (token === ts.SyntaxKind.TemplateHead || token === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
      // Template literals are text, not comments; the scanner needs to be told where their middles end.
      if (token === ts.SyntaxKind.TemplateHead) skipTemplate(scanner);
    }
  }
  return comments;
}

/** Moves the scanner past the rest of a template literal whose head it has just read. */
function skipTemplate(scanner: ts.Scanner): void {
  let depth = 0;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.OpenBraceToken) depth++;
    else if (token === ts.SyntaxKind.TemplateHead) skipTemplate(scanner);
    else if (token === ts.SyntaxKind.CloseBraceToken) {
      if (depth > 0) {
        depth--;
        continue;
      }
      const rest = scanner.reScanTemplateToken(false);
      if (rest === ts.SyntaxKind.TemplateTail) return;
    }
  }
}

/** Each comment line under `dir` that carries a measurement, as `file:line: text`. */
export function measuredComments(dir: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    for (const comment of commentsOf(fs.readFileSync(file, 'utf8'))) {
      comment.text.split('\n').forEach((line, i) => {
        if (MEASUREMENTS.some((measurement) => measurement.test(line)))
          found.push(`${path.relative(dir, file)}:${comment.line + i}: ${line.trim()}`);
      });
    }
  }
  return found;
}

if (process.argv[1]?.endsWith('check-comments.ts')) {
  const dir = process.argv[2] ?? 'src';
  const found = measuredComments(dir);
  if (found.length > 0) {
    console.error(
      `Comments under ${dir}/ that carry a measurement (say why in the comment; put the figure in docs/performance.md or bench/results/, or name the constant):\n${found.join('\n')}`,
    );
    process.exit(1);
  }
}
