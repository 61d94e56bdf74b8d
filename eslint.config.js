// Lint budgets (STYLE.md habit 12): promise handling, explicit boundaries, complexity, depth and size limits.
// Type-aware: every linted .ts file must belong to a workspace tsconfig (projectService finds it).
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'test-results/**',
      'deploy/**',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      complexity: ['error', 15],
      'max-depth': ['error', 4],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // The console's web page: plain browser modules, served as written (no build step), so no type checker sees them.
    files: ['console/web/**/*.js'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'location', 'fetch', 'EventSource', 'CSS', 'Node', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'console'].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      'no-undef': 'error',
      'no-unused-vars': 'error',
      'no-console': 'error',
      'prefer-const': 'error',
      complexity: ['error', 15],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Library code logs through pino; only a controller's main.ts owns the console.
    files: ['apis/**/*.ts', 'controllers/*/src/**/*.ts', 'console/src/**/*.ts'],
    // Entry points own the console: a controller's main.ts and the CRD generator behind `npm run generate`.
    ignores: ['controllers/*/src/main.ts', 'apis/src/crd/generate.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // A test is one long story told with describe/it callbacks, and asserts on values it just checked.
    files: ['**/*.test.ts', 'test/e2e/**/*.ts'],
    rules: {
      'max-lines-per-function': 'off',
      'max-lines': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
