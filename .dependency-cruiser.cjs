/**
 * The import rules of src/ (docs/architecture.md, "Layers"), checked by dependency-cruiser in `npm run lint`
 * (`npm run lint:imports`): no module imports itself back through others, no folder does either (two folders that
 * import each other are one piece, even when no two files form a circle), and an import goes down or sideways,
 * never up: the top assembles and runs the service, the areas (modules/<area>/) are what it serves, everything else is
 * what the areas build on. Type-only imports count: a circle of types is still two modules that cannot be understood,
 * or moved, one without the other. test/import-circles.test.ts shows each rule finding a planted case.
 */
const TOP = '^src/(app|request-pipeline|server|run-server)\\.ts$|^src/(cli|demo)/';
const AREA = '^src/modules/';

module.exports = {
  forbidden: [
    {
      name: 'no-circle',
      severity: 'error',
      comment: 'Move what both sides need into a module of its own (docs/architecture.md).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circle',
      scope: 'folder',
      severity: 'error',
      comment: 'Two folders that import each other are one piece: move what both need into a folder of its own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-area-imports-the-top',
      severity: 'error',
      comment: 'An area (modules/<area>/) is assembled by the top; it never imports it.',
      from: { path: AREA },
      to: { path: TOP },
    },
    {
      name: 'app-enters-areas-by-their-index',
      severity: 'error',
      comment:
        'app.ts assembles: it takes each area from its index.ts (its <area>Area function), never a file inside it.',
      from: { path: '^src/app\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'no-base-imports-an-area-or-the-top',
      severity: 'error',
      comment: 'What the areas build on never imports an area or the top: pass what it needs in from above.',
      from: { path: '^src/', pathNot: [AREA, TOP] },
      to: { path: [AREA, TOP] },
    },
  ],
  options: {
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: false } },
  },
};
