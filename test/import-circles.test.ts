import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderCircles, importCircles, upwardImports } from '../scripts/check-imports.js';

/** A throwaway source tree: file name → text. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-imports-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('the import-circle check (npm run lint)', () => {
  it('finds none in the service', () => {
    expect(importCircles('src')).toEqual([]);
  });

  it('finds a circle made of type imports, a longer one through an index, and a module importing itself', () => {
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
    expect(importCircles(dir).sort()).toEqual([
      ['a.ts', 'b/index.ts', 'c.ts'],
      ['events/rules.ts', 'events/service.ts'],
      ['self.ts'],
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the folder-circle check (npm run lint)', () => {
  it('finds none in the service', () => {
    expect(folderCircles('src')).toEqual([]);
  });

  it('finds folders that import each other through files that form no circle, areas of modules/ counted apart', () => {
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
    expect(importCircles(dir)).toEqual([]);
    expect(folderCircles(dir).sort()).toEqual([
      ['db', 'shared'],
      ['modules/oauth', 'modules/web'],
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the layer check (npm run lint)', () => {
  it('finds no import that climbs a layer in the service', () => {
    expect(upwardImports('src')).toEqual([]);
  });

  it('finds a lower module importing an area or the top, and an area importing the top; not the other way down', () => {
    const dir = tree({
      'app.ts': "import { postsArea } from './modules/posts/index.js';\nimport { db } from './db/database.js';\n",
      'modules/posts/index.ts':
        "import { db } from '../../db/database.js';\nimport type { App } from '../../app.js';\nimport { x } from '../jobs/x.js';\n",
      'modules/jobs/x.ts': 'export const x = 1;\n',
      'db/database.ts': "import { rule } from '../modules/codes/rules.js';\nexport const db = 1;\n",
      'modules/codes/rules.ts': 'export const rule = 1;\n',
      'console/index.ts': "import { run } from '../cli/main.js';\n",
      'cli/main.ts': "import { db } from '../db/database.js';\nexport const run = 1;\n",
    });
    expect(upwardImports(dir).sort()).toEqual([
      'console/index.ts → cli/main.ts',
      'db/database.ts → modules/codes/rules.ts',
      'modules/posts/index.ts → app.ts',
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
