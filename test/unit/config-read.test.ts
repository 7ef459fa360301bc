// The read-only path (readConfig, no conf) against conf's own (openConfig): the same file, the same
// profiles, the same errors, and the same file on disk afterwards.
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { describe, expect, it } from 'vitest';
import { configPath, openConfig, readConfig } from '../../src/cli/config.js';
import { configDir } from '../../src/cli/paths.js';

const fresh = () => mkdtempSync(join(tmpdir(), 'pinvoice-config-'));
const profiles = { current: 'local', profiles: { local: { baseUrl: 'http://127.0.0.1:4010', token: 'pinv_test_0123456789abcd' }, constructor: { baseUrl: 'http://x' } } };

describe('where the profiles are', () => {
  it('is where conf puts them for project "pinvoice" without a suffix', () => {
    const home = fresh();
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = join(home, 'xdg');
    try {
      const conf = new Conf({ projectName: 'pinvoice', projectSuffix: '', configName: 'config' });
      if (process.platform === 'linux') expect(configPath({ XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME })).toBe(conf.path);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
    expect(configDir({}, 'linux', '/home/u')).toBe('/home/u/.config/pinvoice');
    expect(configDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Preferences/pinvoice');
    expect(configDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toMatch(/pinvoice[\\/]Config$/);
    expect(configPath({ PINVOICE_CONFIG_DIR: '/tmp/x' })).toBe('/tmp/x/config.json');
  });
});

describe('readConfig, without conf', () => {
  it('reads the profiles conf reads, and leaves the file as it was', async () => {
    const env = { PINVOICE_CONFIG_DIR: fresh() };
    writeFileSync(configPath(env), JSON.stringify(profiles), { mode: 0o600 });
    const before = readFileSync(configPath(env), 'utf8');
    const [read, opened] = [await readConfig(env), await openConfig(env)];
    expect(read.path).toBe(opened.path);
    expect(read.current()).toBe(opened.current());
    expect(read.all()).toEqual(opened.all());
    expect(read.get('local')).toEqual(opened.get('local'));
    expect(read.get('toString')).toBeUndefined();
    expect(read.get('constructor')).toEqual(opened.get('constructor'));
    expect(readFileSync(configPath(env), 'utf8')).toBe(before);
  });

  it('lets conf create a missing file, as every command did', async () => {
    const [a, b] = [{ PINVOICE_CONFIG_DIR: join(fresh(), 'new') }, { PINVOICE_CONFIG_DIR: join(fresh(), 'new') }];
    await readConfig(a);
    await openConfig(b);
    expect(readFileSync(configPath(a), 'utf8')).toBe(readFileSync(configPath(b), 'utf8'));
    expect(statSync(configPath(a)).mode & 0o777).toBe(statSync(configPath(b)).mode & 0o777);
  });

  it.each(['', '{"current":"x"', '{"profiles":5}', '{"profiles":{"a":{"baseUrl":1}}}', '\ufeff{"profiles":{}}', '[]'])('refuses %j as openConfig does', async (text) => {
    const env = { PINVOICE_CONFIG_DIR: fresh() };
    writeFileSync(configPath(env), text);
    const [read, opened] = [await readConfig(env).catch((e) => e), await openConfig(env).catch((e) => e)];
    expect(read).toBeInstanceOf(Error);
    expect(read.message).toBe(opened.message);
    expect(read.exitCode).toBe(opened.exitCode);
    expect(readFileSync(configPath(env), 'utf8')).toBe(text);
  });

  it('lets conf add "profiles" to a file without it, as it did', async () => {
    const [a, b] = [{ PINVOICE_CONFIG_DIR: fresh() }, { PINVOICE_CONFIG_DIR: fresh() }];
    for (const env of [a, b]) writeFileSync(configPath(env), '{"current":"x"}');
    expect((await readConfig(a)).current()).toBe((await openConfig(b)).current());
    expect(readFileSync(configPath(a), 'utf8')).toBe(readFileSync(configPath(b), 'utf8'));
  });

  it('reports a file it cannot read as conf does', async () => {
    const env = { PINVOICE_CONFIG_DIR: fresh() };
    mkdirSync(configPath(env));
    const [read, opened] = [await readConfig(env).catch((e) => e), await openConfig(env).catch((e) => e)];
    expect(read.message).toBe(opened.message);
    expect(existsSync(configPath(env))).toBe(true);
  });
});
