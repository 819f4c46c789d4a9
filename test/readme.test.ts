import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/main.js';
import { DEMO_API_KEY, DEMO_CLIENT, DEMO_COMPANY, DEMO_USER } from '../src/demo/demo-generator.js';

const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('starts with the two-line quick start', () => {
    const block = /## Quick start\s+```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block?.trim().split('\n')).toEqual(['npm install && npm run demo', 'npm test']);
  });

  it('lists the real demo credentials', () => {
    expect(readme).toContain(DEMO_API_KEY);
    expect(readme).toContain(DEMO_USER.email);
    expect(readme).toContain(DEMO_USER.password);
    expect(readme).toContain(DEMO_COMPANY);
    expect(readme).toContain(DEMO_CLIENT.clientId);
    expect(readme).toContain(DEMO_CLIENT.clientSecret);
    expect(readme).toContain(DEMO_CLIENT.redirectUri);
  });

  it('documents every CLI command', () => {
    for (const command of COMMANDS) expect(readme).toContain(`\`${command.name}`);
  });
});
