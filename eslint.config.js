import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'sdk/dist/',
      'sdk/src/schema.ts',
      'sdk/src/operations.ts',
      'data/',
      'coverage/',
      'node_modules/',
      'bench/results/',
      'bench/data/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Tests read JSON response bodies, whose shape the OpenAPI conformance check already verifies.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The suite waits on events or the test clock; a real wait goes through test/helpers/real-time.ts, which names
    // its reason (docs/development.md, "Waiting in tests").
    files: ['test/**'],
    ignores: ['test/helpers/real-time.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='setTimeout'][arguments.0.type='Identifier']",
          message:
            'A real wait: wait on an event or move the test clock; one that must stay is realWait(ms, why) from test/helpers/real-time.ts.',
        },
      ],
    },
  },
  {
    // What tests, benchmarks and scripts share lives in support/; the tests' own helpers stay theirs.
    files: ['bench/**', 'scripts/**', 'support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**'],
              message: 'Import what bench/ and scripts/ share with the tests from support/, not from test/.',
            },
          ],
        },
      ],
    },
  },
  {
    // The service runs without the repository's tools and tests.
    files: ['src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/test/**', '**/support/**', '**/bench/**', '**/scripts/**'],
              message: 'src/ imports only src/ and packages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**', 'src/server.ts', 'bench/**', 'scripts/rolling-restart-drill.ts'],
    rules: { 'no-console': 'off' },
  },
);
