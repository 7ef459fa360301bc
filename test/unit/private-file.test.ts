// src/base/private-file.ts: what pinvoice creates is 0600 or 0700 whatever the umask, what it finds
// wider is tightened and said once, and what it cannot tighten is refused, naming the chmod.
import { chmodSync, chownSync, closeSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createPrivateFile, makePrivateFolder, openPrivateFile, ownFolder, PrivateFileError, tightenFiles, writeNewPrivateFile, writePrivateFile,
} from '../../src/base/private-file.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const ROOT = process.getuid?.() === 0;
let dir: string;
let told: string[];
const notify = (line: string) => void told.push(line);
let mask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinvoice-private-'));
  told = [];
  mask = process.umask();
});
afterEach(() => void process.umask(mask));

describe.each([0o000, 0o277])('created under umask %o', (umask) => {
  it('folders (each one made) are 0700 and files 0600, exactly', () => {
    process.umask(umask);
    const deep = join(dir, 'a', 'b', 'c');
    makePrivateFolder(deep);
    const file = join(deep, 'made.db');
    createPrivateFile(file);
    writePrivateFile(join(deep, 'whole.env'), 'A=1\n', notify);
    writeNewPrivateFile(join(deep, 'once.json'), '{}');
    closeSync(openPrivateFile(join(deep, 'out.ndjson'), 'w', notify));
    expect([join(dir, 'a'), join(dir, 'a', 'b'), deep].map(mode)).toEqual(['700', '700', '700']);
    expect(['made.db', 'whole.env', 'once.json', 'out.ndjson'].map((name) => mode(join(deep, name)))).toEqual(['600', '600', '600', '600']);
    expect(told).toEqual([]);
  });
});

describe('found wider', () => {
  it('tightens what others may read in one line, once; keeps the owner bits; skips what is missing or a folder', () => {
    const [a, b, ro, folder] = ['a.db', 'a.db-wal', 'ro.db', 'folder'].map((name) => join(dir, name)) as [string, string, string, string];
    writeFileSync(a, 'x');
    writeFileSync(b, 'y');
    writeFileSync(ro, 'z');
    mkdirSync(folder);
    chmodSync(a, 0o644);
    chmodSync(b, 0o666);
    chmodSync(ro, 0o444);
    chmodSync(folder, 0o755);
    tightenFiles([a, b, ro, folder, join(dir, 'missing')], notify);
    expect([mode(a), mode(b), mode(ro), mode(folder)]).toEqual(['600', '600', '400', '755']);
    expect(told).toEqual([`made owner-only, as other users could read them: ${a} (was 644), ${b} (was 666), ${ro} (was 444)`]);
    tightenFiles([a, b, ro], notify);
    expect(told).toHaveLength(1);
  });

  it('opens a 644 file for writing only once it is 600, said once; its content is replaced', () => {
    const out = join(dir, 'results.ndjson');
    writeFileSync(out, 'old\n');
    chmodSync(out, 0o644);
    const fd = openPrivateFile(out, 'w', notify);
    writeSync(fd, 'new\n');
    closeSync(fd);
    expect([mode(out), readFileSync(out, 'utf8')]).toEqual(['600', 'new\n']);
    expect(told).toEqual([`made owner-only, as other users could read it: ${out} (was 644)`]);
  });

  it('replaces a 644 file whole with a 600 one, saying so', () => {
    const env = join(dir, 'ci.env');
    writeFileSync(env, 'OLD=1\n');
    chmodSync(env, 0o644);
    writePrivateFile(env, 'NEW=2\n', notify);
    expect([mode(env), readFileSync(env, 'utf8')]).toEqual(['600', 'NEW=2\n']);
    expect(told).toEqual([`replaced ${env} (mode 644, which other users could read) with an owner-only one (600)`]);
  });

  it("tightens pinvoice's own folder, and leaves a folder it only makes the inside of alone", () => {
    const own = join(dir, 'keys');
    mkdirSync(own);
    chmodSync(own, 0o755);
    chmodSync(dir, 0o755);
    ownFolder(own, notify);
    makePrivateFolder(join(dir, 'new'));
    expect([mode(own), mode(dir), mode(join(dir, 'new'))]).toEqual(['700', '755', '700']);
    expect(told).toEqual([`made owner-only, as other users could read it: ${own} (was 755)`]);
  });

  it('a second writer of a new file gets EEXIST, the first one kept', () => {
    const file = join(dir, 'ca.json');
    writeNewPrivateFile(file, 'first');
    expect(() => writeNewPrivateFile(file, 'second')).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(file, 'utf8')).toBe('first');
  });
});

// Only root can give a file to another user.
describe.runIf(ROOT)("another user's", () => {
  it('file that others may read is refused, naming it and the chmod, and left as it was', () => {
    const file = join(dir, 'theirs.db');
    writeFileSync(file, 'theirs');
    chmodSync(file, 0o666);
    chownSync(file, 65534, 65534);
    const refusal = new PrivateFileError(`${file} may be read by other users (mode 666) and belongs to another user: make it owner-only (chmod 600 ${file}), or choose another --out`);
    expect(() => tightenFiles([file], notify, ', or choose another --out')).toThrow(refusal);
    expect(() => openPrivateFile(file, 'w', notify, ', or choose another --out')).toThrow(refusal);
    expect([mode(file), readFileSync(file, 'utf8'), told]).toEqual(['666', 'theirs', []]);
  });

  it('folder is refused even when only its owner may enter it', () => {
    const folder = join(dir, 'pix-keys');
    mkdirSync(folder, { mode: 0o700 });
    chownSync(folder, 65534, 65534);
    expect(() => ownFolder(folder, notify)).toThrow(new PrivateFileError(`${folder} belongs to another user: remove it`));
  });
});
