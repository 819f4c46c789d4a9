import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

/** The rules `npm run lint:imports` checks src/ against (.dependency-cruiser.cjs). */
const { forbidden } = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project whose src/ holds these files (name → text). */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-imports-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', name), text);
  }
  return dir;
}

/** What the rules find in `dir`'s src/ (the repository's own when none is given): `rule: from → to`, sorted. */
async function violations(dir = process.cwd()): Promise<string[]> {
  const result = await cruise(['src'], {
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden },
    tsPreCompilationDeps: true,
    includeOnly: '^src/',
  });
  const { summary } = result.output as ICruiseResult;
  return summary.violations
    .map((v) => `${v.rule.name}: ${v.from.replace(/^src\//, '')} → ${v.to.replace(/^src\//, '')}`)
    .sort();
}

describe('the import rules (npm run lint:imports)', () => {
  it('find nothing in the service', async () => {
    expect(await violations()).toEqual([]);
  });

  it('find a circle made of type imports, a longer one through an index, and a module importing itself', async () => {
    const dir = tree({
      'events/rules.ts': "import type { Deps } from './service.js';\nexport const rule = 1;\n",
      'events/service.ts': "import { rule } from './rules.js';\nexport interface Deps { n: number }\n",
      'a.ts': "export { b } from './b/index.js';\n",
      'b/index.ts': "import { c } from '../c.js';\nexport const b = c;\n",
      'c.ts': "import { a } from './a';\nexport const c = 1;\n",
      'self.ts': "import('./self.js');\n",
      'clean/x.ts': "import { y } from './y.js';\nimport fs from 'node:fs';\n",
      'clean/y.ts': 'export const y = 1;\n',
    });
    // One line a circle, at the edge where the cruise closed it; the clean folder has none.
    expect(await violations(dir)).toEqual([
      'no-circle: a.ts → b/index.ts',
      'no-circle: events/rules.ts → events/service.ts',
      'no-circle: self.ts → self.ts',
    ]);
  });

  it('find folders that import each other through files that form no circle, areas of modules/ counted apart', async () => {
    const dir = tree({
      'shared/ids.ts': "import type { DB } from '../db/schema.js';\nexport const id = 1;\n",
      'db/schema.ts': 'export interface DB { n: number }\n',
      'db/database.ts': "import { id } from '../shared/ids.js';\n",
      'modules/oauth/session.ts': "import { web } from '../web/form.js';\nexport const session = 1;\n",
      'modules/web/form.ts': 'export const web = 1;\n',
      'modules/web/page.ts': "import { token } from '../oauth/token.js';\n",
      'modules/oauth/token.ts': 'export const token = 1;\n',
      'modules/posts/index.ts': "import { id } from '../../shared/ids.js';\n",
    });
    expect(await violations(dir)).toEqual([
      'no-folder-circle: db → shared',
      'no-folder-circle: modules/oauth → modules/web',
      'no-folder-circle: modules/web → modules/oauth',
      'no-folder-circle: shared → db',
    ]);
  });

  it('find a lower module importing an area or the top, an area importing the top, and app.ts reaching inside an area; not the other way down', async () => {
    const dir = tree({
      'app.ts':
        "import { postsArea } from './modules/posts/index.js';\nimport { db } from './db/database.js';\nimport { x } from './modules/jobs/x.js';\n",
      'modules/posts/index.ts':
        "import { db } from '../../db/database.js';\nimport type { App } from '../../app.js';\nimport { x } from '../jobs/x.js';\n",
      'modules/jobs/x.ts': 'export const x = 1;\n',
      'db/database.ts': "import { rule } from '../modules/codes/rules.js';\nexport const db = 1;\n",
      'modules/codes/rules.ts': 'export const rule = 1;\n',
      'console/index.ts': "import { run } from '../cli/main.js';\n",
      'cli/main.ts': "import { db } from '../db/database.js';\nexport const run = 1;\n",
    });
    expect(
      (await violations(dir)).filter((v) => !v.startsWith('no-circle') && !v.startsWith('no-folder-circle')),
    ).toEqual([
      'app-enters-areas-by-their-index: app.ts → modules/jobs/x.ts',
      'no-area-imports-the-top: modules/posts/index.ts → app.ts',
      'no-base-imports-an-area-or-the-top: console/index.ts → cli/main.ts',
      'no-base-imports-an-area-or-the-top: db/database.ts → modules/codes/rules.ts',
    ]);
  });
});
