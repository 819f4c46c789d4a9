import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkFiles, servedDocument } from '../scripts/sdk-files.js';

/**
 * The SDK's document, types and operation table are what the service serves today (`npm run sdk:generate`
 * rewrites them), and the document passes Redocly's recommended rules with no error and no warning besides
 * the exceptions written down in .redocly.lint-ignore.yaml.
 */
describe('SDK and OpenAPI document', () => {
  it('has generated files equal to what the served document generates', async () => {
    const files = await sdkFiles(await servedDocument());
    for (const [file, content] of Object.entries(files)) {
      const committed = fs.readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
      expect(committed === content, `${file} differs from the served document: run npm run sdk:generate`).toBe(true);
    }
  });

  it('passes redocly lint with the recommended rules: 0 errors, 0 warnings', () => {
    const cli = new URL('../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [cli, 'lint', 'sdk/openapi.json', '--format', 'json'], {
      cwd: new URL('..', import.meta.url).pathname,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const report = JSON.parse(out.slice(out.indexOf('{'))) as {
      totals: { errors: number; warnings: number; ignored: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(report.totals.ignored).toBe(5);
  });
});
