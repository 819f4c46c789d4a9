/**
 * Fails when the service's modules import each other in a circle, or a lower layer imports an area:
 * npm run lint:imports [DIR] (default src).
 *
 * Reads every `.ts` file under DIR, takes its relative imports and re-exports (`import … from './x.js'`,
 * `import type …`, `export … from`, `import('./x.js')`), resolves them to files, and finds the circles with
 * Tarjan's strongly connected components. Type-only imports count: a circle of types is still two modules that
 * cannot be understood, or moved, one without the other. Prints each circle and exits 1; prints nothing and
 * exits 0 when there is none. The same is done for folders (each area of modules/, and db/, shared/, search/ …): a
 * circle of folders is reported even when no two files form one. Part of `npm run lint`, so CI fails on a new circle.
 *
 * The layers (docs/architecture.md): the top (app.ts, request-pipeline.ts, server.ts, run-server.ts, cli/, demo/)
 * assembles and runs the service; the areas (modules/<area>/) are what it serves; everything else (infrastructure.ts,
 * server-instance.ts, config.ts, writes/, db/, cache/, change-feed/, search/, media/, rate-limit/, net/, plugins/, schemas/, shared/) is
 * what the areas build on. An import may go down or sideways, never up: a lower file importing an area or the top,
 * or an area importing the top, is reported like a circle.
 */
import fs from 'node:fs';
import path from 'node:path';

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The files a file imports, among `files` (relative specifiers only; packages are not ours). */
function importsOf(file: string, files: Set<string>): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (!specifier?.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), specifier);
    const target = [base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')].find((candidate) =>
      files.has(candidate),
    );
    if (target) found.add(target);
  }
  return [...found];
}

/** The strongly connected components of a graph with more than one node, or one that points at itself (Tarjan's, iterative). */
function circlesOf(nodes: string[], edges: Map<string, string[]>): string[][] {
  // Iterative, so that a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]!;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      for (let member = stack.pop()!; ; member = stack.pop()!) {
        onStack.delete(member);
        component.push(member);
        if (member === frame.node) break;
      }
      const selfImport = component.length === 1 && (edges.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) circles.push(component.sort());
    }
  }
  return circles;
}

/** Every circle among the files under `dir`: each a list of files, sorted, relative to `dir`. */
export function importCircles(dir: string): string[][] {
  const root = path.resolve(dir);
  const files = sourceFiles(root);
  const known = new Set(files);
  const relative = (file: string) => path.relative(root, file);
  const edges = new Map(files.map((file) => [relative(file), importsOf(file, known).map(relative)]));
  return circlesOf(files.map(relative), edges);
}

/** The folder a file belongs to for the folder-level check: `modules/<area>`, else its first folder (or itself at the root). */
export function folderOf(file: string): string {
  const parts = file.split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? `modules/${parts[1]}` : parts[0]!;
}

/**
 * Every circle among the folders under `dir` (an area of modules/, or a folder such as db/ or shared/): two folders
 * that import each other, however indirectly, are one piece that the file-level check cannot see.
 */
export function folderCircles(dir: string): string[][] {
  const root = path.resolve(dir);
  const files = sourceFiles(root);
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const from = folderOf(path.relative(root, file));
    const targets = edges.get(from) ?? [];
    for (const target of importsOf(file, known)) {
      const to = folderOf(path.relative(root, target));
      if (to !== from && !targets.includes(to)) targets.push(to);
    }
    edges.set(from, targets);
  }
  return circlesOf([...edges.keys()], edges);
}

const TOP = /^(app|request-pipeline|server|run-server)\.ts$|^(cli|demo)\//;
const AREA = /^modules\//;

/** 2 for the top, 1 for an area, 0 for what the areas build on; `file` relative to the source root. */
export function layerOf(file: string): number {
  const relative = file.split(path.sep).join('/');
  return TOP.test(relative) ? 2 : AREA.test(relative) ? 1 : 0;
}

/** Every import that climbs a layer, as `from → to` (paths relative to `dir`). */
export function upwardImports(dir: string): string[] {
  const root = path.resolve(dir);
  const files = sourceFiles(root);
  const known = new Set(files);
  return files.flatMap((file) =>
    importsOf(file, known)
      .filter((target) => layerOf(path.relative(root, target)) > layerOf(path.relative(root, file)))
      .map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
  );
}

if (process.argv[1]?.endsWith('check-imports.ts')) {
  const dir = process.argv[2] ?? 'src';
  const circles = [...importCircles(dir), ...folderCircles(dir).map((circle) => circle.map((folder) => `${folder}/`))];
  for (const circle of circles) console.error(`Import circle in ${dir}: ${circle.join(' ↔ ')}`);
  const upward = upwardImports(dir);
  for (const edge of upward) console.error(`Import up a layer in ${dir}: ${edge}`);
  if (circles.length > 0) console.error('Move what both sides need into a module of its own (docs/architecture.md).');
  if (upward.length > 0)
    console.error('Pass what the lower module needs in from above, or move it down (docs/architecture.md, "Layers").');
  if (circles.length > 0 || upward.length > 0) process.exit(1);
}
