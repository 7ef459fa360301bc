// A small tmpfs of the test's own, to fill up for real: `mount -t tmpfs` as root (or through
// `sudo -n`), unmounted afterwards. Where neither works, the tests that need it say why they skip
// (in CI they fail: .ci/run runs as root).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  unmount(): void;
}

const asRoot = (args: string[]) => {
  const [command, all] = process.getuid?.() === 0 ? [args[0] as string, args.slice(1)] : ['sudo', ['-n', ...args]];
  execFileSync(command, all, { stdio: 'pipe' });
};

/** Mounts a tmpfs of `kib` KiB (owned by `uid`, default ours) on a new folder; undefined where mounting is not allowed. */
export function mountTmpfs(kib: number, uid = process.getuid?.() ?? 0): Tmpfs | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-tmpfs-'));
  try {
    asRoot(['mount', '-t', 'tmpfs', '-o', `size=${kib}k,mode=0700,uid=${uid},gid=${uid === 0 ? 0 : uid}`, 'tmpfs', dir]);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return {
    dir,
    unmount() {
      try {
        asRoot(['umount', '-l', dir]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Whether this run can mount one: checked once by mounting and unmounting a tiny one. */
export function canMountTmpfs(): boolean {
  const probe = mountTmpfs(64);
  probe?.unmount();
  return probe !== undefined;
}

/** Fills the file system of `dir` with a file of its own until no byte more fits; answers the file's path (delete it to free the space). */
export function fill(dir: string): string {
  const path = join(dir, 'filler');
  execFileSync('sh', ['-c', `cat /dev/zero > '${path}' 2>/dev/null; true`]);
  return path;
}
