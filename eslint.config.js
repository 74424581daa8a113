// ESLint flat config: typescript-eslint for both sides, React hooks rules for the renderer.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['scratch*/**', 'dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{js,mjs,ts}', '*.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Type-aware rules: a promise nobody awaits or handles is an unhandled rejection waiting to happen, and an async
  // function passed where a void callback is expected (event handlers, React props) drops its rejection too.
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts', 'docs/examples/*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['electron/core/**/*.ts', 'shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The core and the contract never import Electron.' }] }],
    },
  },
  {
    // The core runs the same under both shells, so it imports nothing from them. (This block replaces the one above
    // for the core, hence the Electron ban again.)
    files: ['electron/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The core and the contract never import Electron.' }],
          patterns: [
            {
              group: ['**/headless/**', '**/app/**', '**/paths.js', '**/main.js', '**/headless.js', '**/bootstrap.js', '**/preload.js'],
              message: 'The core imports nothing from the shells; move what both need into electron/core/ or shared/.',
            },
          ],
        },
      ],
    },
  },
);
