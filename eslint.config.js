// ESLint over src/, test/, examples/ and bench/ (`npm run lint`, part of `npm test`).
// TypeScript gets typescript-eslint's type-checked rules. Formatting is Prettier's (`npm run
// format`), so no stylistic rule is turned on here. Import circles are dependency-cruiser's
// (.dependency-cruiser.cjs): ESLint's cycle rules skip type-only imports.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['dist/', 'build/', 'coverage/', 'docs/api/', 'bench/results/', 'conformance/', '**/node_modules/'],
  },
  {
    files: ['**/*.{js,mjs,cjs,ts,mts}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // A closure may name a variable assigned once, after the closure is made (a fake server's
      // handler names the server it is passed to): that `let` cannot be a `const`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.{ts,mts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An AbortSignal's reason is whatever the caller aborted with (typed `any` by the DOM
      // lib): rejecting with it as given is the platform's contract, and callers read it back.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A leading underscore marks a parameter kept for its position in a signature.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read wire JSON and fakes' captures, typed `any` on purpose: the assertions check
      // their shape, so these rules would only ask for casts that check nothing.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A stub of a Promise-returning hook is `async` to keep that contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
