// ESLint with typescript-eslint's type-aware rules (no-floating-promises above all: a promise nobody
// awaits is an error nobody sees). Formatting is Prettier's (npm run format:check).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // .build holds generated clients; scripts/clients/walkthrough.ts compiles only beside one (scripts/generated-clients.sh).
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'demo-data/**', '.build/**', 'scripts/**/*.py', 'scripts/clients/walkthrough.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.browser.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Adapters implement promise-returning ports with `async` methods that may not await (the
      // in-memory store): that keeps a throw a rejection, as the port's callers expect.
      '@typescript-eslint/require-await': 'off',
      // A server's handler reads the object the server is handed to once it exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests read untyped JSON answers (`res.body.order.id`): `any` is their honest type there.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      globals: { require: 'readonly', process: 'readonly', __dirname: 'readonly', module: 'readonly', console: 'readonly' },
    },
  },
);
