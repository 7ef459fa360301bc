// Profiles in a conf file readable by its owner only: { current, profiles: { name: { baseUrl, token, company } } }.
// Commands that only read it (every API command, `profile list`) read the file directly; conf, which
// costs about 100 ms to load, is loaded for writes, and whenever conf would write on opening.
import { readFileSync, renameSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, EXIT } from './errors.js';
import { configDir } from './paths.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** The company a token belongs to, as Company Infos answered at login. */
export interface CompanyRef {
  id: number;
  cnpj: string;
  name: string;
}

export interface Profile {
  baseUrl: string;
  token?: string;
  company?: CompanyRef;
}

interface Shape {
  current?: string;
  profiles: Record<string, Profile>;
}

/** What the commands that only read profiles see. */
export interface ConfigView {
  path: string;
  current(): string | undefined;
  get(name: string): Profile | undefined;
  all(): Record<string, Profile>;
}

export interface ConfigStore extends ConfigView {
  setCurrent(name: string | undefined): void;
  set(name: string, profile: Profile): void;
  remove(name: string): boolean;
  /** Where a file that could not be used was moved, and why, before this store wrote a new one (repair mode). */
  movedAside(): { to: string; problem: string } | undefined;
}

// Profile names are keys: "constructor" must not find Object.prototype's.
const own = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function profileProblem(name: string, value: unknown): string | undefined {
  if (!isObject(value)) return `profile "${name}" is not an object`;
  if (typeof value.baseUrl !== 'string') return `profile "${name}" has no "baseUrl" string`;
  if (value.token !== undefined && typeof value.token !== 'string') return `the "token" of profile "${name}" is not a string`;
  const company = value.company;
  if (company === undefined) return undefined;
  if (!isObject(company) || typeof company.id !== 'number' || typeof company.cnpj !== 'string' || typeof company.name !== 'string') {
    return `the "company" of profile "${name}" is not {id, cnpj, name}`;
  }
  return undefined;
}

/** "line 3, column 14" for JSON.parse's "at position N", when its message has one. */
function where(text: string, message: string): string {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return '';
  const before = text.slice(0, Number(position)).split('\n');
  return ` (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})`;
}

/** What is wrong with the file's text, or undefined when it holds profiles as pinvoice writes them. */
export function configProblem(text: string): string | undefined {
  if (text.trim() === '') return 'it is empty';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Never the parser's own message: it quotes the file, and the file holds tokens.
    return `it is not valid JSON${where(text, (error as Error).message)}`;
  }
  if (!isObject(value)) return 'it does not hold a JSON object';
  if (value.current !== undefined && typeof value.current !== 'string') return '"current" is not a string';
  if (value.profiles === undefined) return undefined;
  if (!isObject(value.profiles)) return '"profiles" is not an object';
  for (const [name, profile] of Object.entries(value.profiles)) {
    const problem = profileProblem(name, profile);
    if (problem) return problem;
  }
  return undefined;
}

export function brokenConfigError(path: string, problem: string): CliError {
  return new CliError(
    `the configuration file ${path} cannot be used: ${problem}.\n` +
      '  `pinvoice login` moves it aside (to config.json.broken-<time>) and starts a new one with the profile it logs in to;\n' +
      '  or fix or delete the file yourself.',
    EXIT.unexpected,
  );
}

/** Renames a file that cannot be read, so that nothing in it is lost; it keeps the owner-only mode (openConfig made it so). */
function moveAside(path: string, now = new Date()): string {
  const aside = `${path}.broken-${now.toISOString().replace(/[-:]|\.\d+/g, '')}`;
  renameSync(path, aside);
  return aside;
}

/**
 * Before conf opens it: the folder made 0700 (conf would make it with the umask's mode), the folder
 * and the file tightened when found wider, said on stderr. One that cannot be is an error naming it.
 */
function makeConfigPrivate({ ownFolder, PrivateFileError, tightenFiles }: typeof import('../base/private-file.js'), path: string): void {
  const notify = (line: string) => process.stderr.write(`pinvoice: ${line}\n`);
  try {
    ownFolder(dirname(path), notify);
    tightenFiles([path], notify);
  } catch (error) {
    throw error instanceof PrivateFileError ? new CliError(`the configuration: ${error.message}`, EXIT.unexpected) : error;
  }
}

/** The file both readers use: config.json in configDir (PINVOICE_CONFIG_DIR, else the platform's). */
export const configPath = (env: NodeJS.ProcessEnv = process.env): string => resolve(configDir(env), 'config.json');

/**
 * The profiles, read-only, for commands that never write them. A file that cannot be used is the
 * same error as openConfig's. When conf would write on opening (no file yet: it creates the file with
 * `{"profiles": {}}`; a file without "profiles") or the file cannot be read at all, this is openConfig,
 * so that the files and errors stay conf's.
 */
export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<ConfigView> {
  const path = configPath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return openConfig(env);
  }
  const problem = configProblem(text);
  if (problem !== undefined) throw brokenConfigError(path, problem);
  const { current, profiles } = JSON.parse(text) as Partial<Shape>;
  if (profiles === undefined) return openConfig(env);
  return { path, current: () => current, get: (name) => own(profiles, name), all: () => profiles };
}

/**
 * The profiles for reading and writing, through conf. A file that cannot be read is an error naming
 * it; with `repair` (login) it reads as empty instead and is moved aside by the first write.
 */
export async function openConfig(env: NodeJS.ProcessEnv = process.env, { repair = false } = {}): Promise<ConfigStore> {
  // loaded for writes only: a command that reads profiles never needs it
  const [{ default: Conf }, files] = await Promise.all([import('conf'), import('../base/private-file.js')]);
  makeConfigPrivate(files, configPath(env));
  let problem: string | undefined;
  let movedAside: { to: string; problem: string } | undefined;
  const conf = new Conf<Shape>({
    projectName: 'pinvoice',
    projectSuffix: '',
    configName: 'config',
    cwd: configDir(env),
    configFileMode: 0o600,
    defaults: { profiles: {} },
    // A broken file reads as the defaults, which conf then leaves on disk untouched; `read` reports it.
    deserialize: (text: string) => {
      problem = configProblem(text);
      return problem === undefined ? (JSON.parse(text) as Shape) : { profiles: {} };
    },
  });
  const read = (): Shape => {
    const store = conf.store as Partial<Shape>;
    if (problem !== undefined && !repair) throw brokenConfigError(conf.path, problem);
    if (problem !== undefined) return { profiles: {} };
    return { ...(store.current !== undefined && { current: store.current }), profiles: store.profiles ?? {} };
  };
  read();
  const save = (mutate: (shape: Shape) => void) => {
    const shape = read();
    if (problem !== undefined) {
      movedAside = { to: moveAside(conf.path), problem };
      problem = undefined;
    }
    mutate(shape);
    conf.store = shape.current === undefined ? { profiles: shape.profiles } : shape;
    files.setOwnerOnly(conf.path); // conf's mode is the umask's to narrow: made exact
  };
  return {
    path: conf.path,
    current: () => read().current,
    setCurrent: (name) => save((shape) => void (shape.current = name)),
    get: (name) => own(read().profiles, name),
    set: (name, profile) => save((shape) => void (shape.profiles[name] = profile)),
    remove(name) {
      if (!own(read().profiles, name)) return false;
      save((shape) => {
        delete shape.profiles[name];
        if (shape.current === name) shape.current = undefined;
      });
      return true;
    },
    all: () => read().profiles,
    movedAside: () => movedAside,
  };
}
