// Where pinvoice keeps its data by default, per platform conventions.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function dataDir(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, home: string = homedir()): string {
  if (env.PINVOICE_DATA_DIR) return env.PINVOICE_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'pinvoice', 'Data');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'pinvoice');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'pinvoice');
}

/**
 * Where the CLI keeps its profiles: PINVOICE_CONFIG_DIR (tests, CI), else the config directory conf
 * chose when it was given only the project name (env-paths, "pinvoice" without a suffix), so that
 * files written before stay where they are.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform, home: string = homedir()): string {
  if (env.PINVOICE_CONFIG_DIR) return resolve(env.PINVOICE_CONFIG_DIR);
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'pinvoice', 'Config');
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'pinvoice');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'pinvoice');
}

/** `--db` > PINVOICE_DB > the data directory's pinvoice.db */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PINVOICE_DB || join(dataDir(env), 'pinvoice.db');
}
