import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { serverBoundaries, webBoundaries } from './eslint.boundaries.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/.test-bundle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The rules that need types (a promise nobody awaits, a switch that misses a case) run in oxlint with TypeScript 7
  // (`.oxlintrc.json`, `npm run lint` runs both): a quarter of the CPU typescript-eslint spends building the
  // programs again (docs/decisions/0034-typescript-7-checks-types.md). Every rule here works without types.
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  // Features never import each other; shared code never imports features (test/boundaries.test.ts).
  webBoundaries,
  // Server modules meet only through their public entries; shared code never imports a module.
  serverBoundaries,
  // Server modules type what they read (zod, guards, generics): no assertion but `as const` (issue 34).
  {
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.test.ts'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: globals.node },
  },
);
