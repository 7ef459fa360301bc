// Profiles in a conf file readable by its owner only: { current, profiles: { name: { baseUrl, token } } }.
import { chmodSync } from 'node:fs';
import { dirname } from 'node:path';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

export interface Profile {
  baseUrl: string;
  token?: string;
}

interface Shape {
  current?: string;
  profiles: Record<string, Profile>;
}

export interface ConfigStore {
  path: string;
  current(): string | undefined;
  setCurrent(name: string | undefined): void;
  get(name: string): Profile | undefined;
  set(name: string, profile: Profile): void;
  remove(name: string): boolean;
  all(): Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** PINVOICE_CONFIG_DIR moves the file (tests, CI); otherwise the platform's config directory. */
export async function openConfig(env: NodeJS.ProcessEnv = process.env): Promise<ConfigStore> {
  const { default: Conf } = await import('conf');
  const conf = new Conf<Shape>({
    projectName: 'pinvoice',
    projectSuffix: '',
    configName: 'config',
    cwd: env.PINVOICE_CONFIG_DIR || undefined,
    configFileMode: 0o600,
    defaults: { profiles: {} },
  });
  const save = (mutate: (shape: Shape) => void) => {
    const shape: Shape = { current: conf.get('current'), profiles: { ...conf.get('profiles') } };
    mutate(shape);
    conf.store = shape.current === undefined ? { profiles: shape.profiles } : shape;
    chmodSync(conf.path, 0o600);
    chmodSync(dirname(conf.path), 0o700);
  };
  return {
    path: conf.path,
    current: () => conf.get('current'),
    setCurrent: (name) => save((shape) => void (shape.current = name)),
    get: (name) => conf.get('profiles')[name],
    set: (name, profile) => save((shape) => void (shape.profiles[name] = profile)),
    remove(name) {
      if (!conf.get('profiles')[name]) return false;
      save((shape) => {
        delete shape.profiles[name];
        if (shape.current === name) shape.current = undefined;
      });
      return true;
    },
    all: () => conf.get('profiles'),
  };
}
