/** The pages read off the code are current: docs/configuration.md, .env.example and docs/cli.md are what `npm run docs:generate` writes. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';
import { loadConfig } from '../src/config.js';
import { SETTINGS } from '../src/settings.js';
import { GENERATED } from '../scripts/reference-docs.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('generated reference pages', () => {
  it.each(Object.keys(GENERATED))('%s is what npm run docs:generate writes', (file) => {
    expect(read(file)).toBe(GENERATED[file]!());
  });

  it('name every setting once, and every command', () => {
    const listed = [...read('.env.example').matchAll(/^# ([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(listed).toEqual(Object.keys(SETTINGS));
    for (const name of Object.keys(SETTINGS)) expect(read('docs/configuration.md')).toContain(`| \`${name}\` |`);
    for (const command of COMMANDS) expect(read('docs/cli.md')).toContain(`\`${command.name}`);
  });

  it('give each setting a default the service really takes', () => {
    // A default written as a value in .env.example, given back as the setting, changes nothing.
    const given = Object.fromEntries(
      [...read('.env.example').matchAll(/^# ([A-Z][A-Z0-9_]+)=(.+)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    expect(Object.keys(given).length).toBeGreaterThan(50);
    expect(loadConfig(given, '/srv/app')).toEqual(loadConfig({}, '/srv/app'));
  });
});
