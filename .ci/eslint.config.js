import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'completions/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The ground floor: the CLI and the server both stand on src/base, so it stands on nothing of ours but src/domain.
    files: ['src/base/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!domain/)', message: 'src/base imports nothing of ours but src/domain.' }] }],
    },
  },
  {
    // The server is reached over HTTP only; it shares src/api, src/domain and src/base with the CLI, never the CLI itself.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/(cli|commands)/|/program\\.js$', message: 'src/server never imports src/cli, src/commands or the program.' }] }],
    },
  },
  {
    // Tests read arbitrary JSON answers; typing every one of them would add noise, not safety.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
