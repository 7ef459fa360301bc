import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SERVER_NOT_CLI = { regex: '/(cli|commands)/|/program\\.js$', message: 'src/server never imports src/cli, src/commands or the program.' };
const ENGINE_DRIVERS = [
  { name: 'better-sqlite3', message: 'Only src/server/store/sqlite/ talks to SQLite.' },
  { name: 'pg', message: 'Only an engine folder talks to its driver.' },
];
const ENGINE_FOLDERS = { regex: 'store/(sqlite|postgres)/', message: 'Above the port, reach storage through store/port.ts and store/index.ts, not an engine.' };
// Imports run one way (STYLE.md): program → commands → cli → client → api, domain, base. A layer
// never imports one above it; what two layers share goes down to the lower one.
const NOT_PROGRAM = { regex: '(^|/)(program|main)\\.js$', message: 'Only src/main.ts loads the program; nothing below it imports program or main.' };
const CLI_NOT_COMMANDS = { regex: '(^|/)commands/', message: 'src/cli serves the commands and never imports them: move what both need below (src/client, src/domain, src/base).' };
const BELOW_CLI = { regex: '(^|/)(cli|commands|server|testing)/', message: 'src/client, src/api and src/domain never import the CLI, the commands, the server or pinvoice/testing.' };
const TESTING_NOT_CLI = { regex: '(^|/)(cli|commands)/', message: 'pinvoice/testing is a library beside the CLI: it never imports src/cli or src/commands (what both need goes below).' };
const API_DOMAIN_ONLY = { regex: '^\\.\\./(?!(api|domain)/)', message: 'src/api and src/domain import nothing of ours but each other.' };
/**
 * no-restricted-imports for static imports and exports, and the same patterns for `import()` (the lazy
 * handlers' imports, which that rule does not see). esquery's regex cannot hold a slash: it is \x2F there.
 */
const restrict = (patterns, paths = ENGINE_DRIVERS) => ({
  'no-restricted-imports': ['error', { paths, patterns }],
  'no-restricted-syntax': ['error', ...patterns.map(({ regex, message }) => ({ selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/]`, message }))],
});

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
    files: ['src/server/store/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_NOT_CLI] }] },
  },
  {
    // The store's port: above it, no engine. Storage is reached through src/server/store/port.ts (and
    // opened through store/index.ts); only an engine's own folder knows its driver and its SQL.
    // (A later block that sets no-restricted-imports replaces this one's for its files: each repeats these.)
    files: ['src/**/*.ts'],
    ignores: ['src/server/**/*.ts', 'src/base/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ENGINE_DRIVERS, patterns: [ENGINE_FOLDERS] }] },
  },
  {
    files: ['src/commands/**/*.ts'],
    rules: restrict([ENGINE_FOLDERS, NOT_PROGRAM]),
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: restrict([ENGINE_FOLDERS, NOT_PROGRAM, CLI_NOT_COMMANDS]),
  },
  {
    files: ['src/client/**/*.ts'],
    rules: restrict([ENGINE_FOLDERS, NOT_PROGRAM, BELOW_CLI]),
  },
  {
    files: ['src/testing/**/*.ts'],
    rules: restrict([ENGINE_FOLDERS, NOT_PROGRAM, TESTING_NOT_CLI]),
  },
  {
    files: ['src/api/**/*.ts', 'src/domain/**/*.ts'],
    rules: restrict([ENGINE_FOLDERS, NOT_PROGRAM, BELOW_CLI, API_DOMAIN_ONLY]),
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/store/**/*.ts'],
    rules: restrict([SERVER_NOT_CLI, ENGINE_FOLDERS]),
  },
  {
    files: ['src/server/store/port.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: ['better-sqlite3', 'pg'], patterns: [{ regex: '^\\./(sqlite|postgres)/', message: 'The port is engine-neutral.' }] }],
    },
  },
  {
    // The checkout page's and the dashboard's own scripts run in the browser, as classic scripts (no build step).
    files: ['assets/**/*.js'],
    languageOptions: { sourceType: 'script', globals: {
      window: 'readonly', document: 'readonly', navigator: 'readonly', fetch: 'readonly', EventSource: 'readonly', setInterval: 'readonly',
      location: 'readonly', DOMParser: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URLSearchParams: 'readonly', addEventListener: 'readonly',
    } },
  },
  {
    // The benchmarks and the tests never import each other; what both need (a throwaway PostgreSQL
    // cluster) lives in tools/, which imports neither.
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)test/', message: 'bench/ never imports test/: share through tools/.' }] }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)bench/', message: 'test/ never imports bench/: share through tools/.' }] }] },
  },
  {
    files: ['tools/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)(bench|test)/', message: 'tools/ serves bench/ and test/, and imports neither.' }] }] },
  },
  {
    // Tests read arbitrary JSON answers; typing every one of them would add noise, not safety.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
