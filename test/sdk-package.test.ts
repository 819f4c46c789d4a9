import { execFile, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

/** What the TypeScript compiler reports in `cwd` (empty when it finds nothing). */
function tsc(cwd: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    return String((err as { stdout?: string }).stdout);
  }
}

/**
 * The SDK as a builder gets it (docs/sdk.md): `npm pack` in sdk/, the tarball installed into a project of its own
 * (no link to this repository), its TypeScript type-checked with strict settings against the package's own
 * declarations, and its JavaScript run by Node's ESM against a listening service.
 */
describe('the SDK package', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sdk-package-'));
  let service: ListeningApp;
  beforeAll(async () => {
    service = await startListeningApp('sqlite');
  });
  afterAll(async () => {
    await service?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is ready to publish: a semver version its CHANGELOG opens with, public access, and npm publish --dry-run passes', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'sdk/package.json'), 'utf8')) as {
      version: string;
      private?: boolean;
      publishConfig?: { access?: string };
    };
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.private).toBeUndefined();
    const changelog = fs.readFileSync(path.join(ROOT, 'sdk/CHANGELOG.md'), 'utf8');
    expect(/^## (\S+)/m.exec(changelog)?.[1]).toBe(manifest.version);

    const published = spawnSync('npm', ['publish', '--dry-run', '--json'], {
      cwd: path.join(ROOT, 'sdk'),
      encoding: 'utf8',
    });
    expect(published.status, published.stderr).toBe(0);
    expect(published.stderr).toContain('public access (dry-run)');
    const report = JSON.parse(published.stdout.slice(published.stdout.indexOf('{'))) as Record<
      string,
      { id: string; files: Array<{ path: string }> }
    >;
    const sdk = report['@svc-open-api/sdk']!;
    expect(sdk.id).toBe(`@svc-open-api/sdk@${manifest.version}`);
    expect(sdk.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'CHANGELOG.md',
        'README.md',
        'LICENSE',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/models.d.ts',
      ]),
    );
  }, 120_000);

  it('packs with its build, README and LICENSE, installs into a fresh project, type-checks strictly and runs', async () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
        cwd: path.join(ROOT, 'sdk'),
        encoding: 'utf8',
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CHANGELOG.md',
        'LICENSE',
        'package.json',
        'openapi.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/client.js',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/'))).toEqual([]);

    const project = path.join(dir, 'app');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'builder-app', version: '1.0.0', private: true, type: 'module' }),
    );
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', path.join(dir, packed[0]!.filename)], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(fs.existsSync(path.join(project, 'node_modules/@svc-open-api/sdk/dist/index.js'))).toBe(true);

    fs.writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          lib: ['ES2023', 'DOM'],
          outDir: 'out',
          skipLibCheck: false,
        },
        include: ['main.ts'],
      }),
    );
    fs.writeFileSync(
      path.join(project, 'main.ts'),
      `import { createClient, ErrorCode, SvcApiError, type JobSummary, type PostDetail } from '@svc-open-api/sdk';

declare const process: { argv: string[] };   // the project has no @types/node: the SDK needs none

const api = createClient({ baseUrl: process.argv[2]!, apiKey: process.argv[3]!, language: 'en' });
const jobs = await api.searchJobs({ query: { employmentTypes: ['FULL_TIME', 'FIXED_TERM'], pageSize: 5 } });
const first: JobSummary | undefined = jobs.items[0];
const firstEnd: string | null | undefined = first?.endAt;
let seen = 0;
for await (const post of api.paginate('searchPosts', { query: { pageSize: 50 } })) seen += post.postId > 0 ? 1 : 0;
let code = '';
let named = false;
try {
  const post: PostDetail = await api.getPost({ path: { postId: 999_999 } });
  code = String(post.postId);
} catch (err) {
  if (err instanceof SvcApiError) {
    code = err.code;
    named = err.code === ErrorCode.PostNotFound && ErrorCode.RateLimited === 'C0010';
  }
}
console.log(JSON.stringify({ jobs: jobs.totalItems, firstEnd, seen, code, named }));
`,
    );
    // A type error must fail the check: an employment type the API does not have, an error code it does not name.
    fs.writeFileSync(
      path.join(project, 'wrong.ts'),
      "import { createClient, ErrorCode } from '@svc-open-api/sdk';\n" +
        "await createClient({ baseUrl: 'x' }).searchJobs({ query: { employmentTypes: ['CONTRACT'] } });\nexport const code: string = ErrorCode.Teapot;\n",
    );
    expect(tsc(project, ['-p', 'tsconfig.json'])).toBe('');
    expect(
      tsc(project, [
        '--noEmit',
        '--strict',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2022',
        '--lib',
        'ES2023,DOM',
        'wrong.ts',
      ]),
    ).toMatch(
      /wrong\.ts.*error TS2322: Type '"CONTRACT"'[^]*wrong\.ts\(3,.*error TS2339: Property 'Teapot' does not exist/,
    );

    // Run without blocking this process: the service it calls answers from here.
    const { stdout } = await promisify(execFile)(process.execPath, ['out/main.js', service.base, service.demo.apiKey], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out).toMatchObject({ code: 'P0002', named: true, seen: service.demo.posts.total });
    expect(out.jobs).toBeGreaterThan(0);
    expect(out.firstEnd === null || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(String(out.firstEnd))).toBe(true);
  }, 120_000);
});
