// The container image (Dockerfile), as built by .ci/container: its filesystem is exported from
// podman and its entrypoint run under chroot as the image's user, since this machine's OCI runtime
// cannot start containers. What `docker run` gives a process is given here: the image's environment,
// user and working directory, /proc and /dev, a host folder mounted on the /data volume and the host's
// network (as `--network host` would: the server answers on 127.0.0.1:4010). Needs root (chroot,
// mount) and PINVOICE_IMAGE naming the image; run by `npm run test:container`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, eventually, startReceiver } from '../support/receiver.js';

const IMAGE = process.env.PINVOICE_IMAGE ?? '';
const PORT = 4010;
const BASE = `http://127.0.0.1:${PORT}`;
const SIZE_GOAL_MB = 400;
const PIX = {
  method: 'pix',
  total_price_cents: 1990,
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
  items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }],
};

interface ImageConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  Cmd: string[];
  WorkingDir: string;
  ExposedPorts?: Record<string, object>;
  Volumes?: Record<string, object>;
  Healthcheck?: { Test: string[] };
}

function podman(...args: string[]): string {
  const result = spawnSync('podman', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

function sh(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
}

let root = '';
let volume = '';
let config: ImageConfig;
let uid = 0;
let gid = 0;
let sizeBytes = 0;
const mounts: string[] = [];
/** What the image itself holds in /data and in its user's HOME, read before the volume is mounted over /data. */
const baked: Record<string, string[]> = {};

/** A process started as the container would start it: the image's entrypoint, its user, env and working directory. */
interface Container {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(command: string[] = [...config.Entrypoint, ...config.Cmd], extraEnv: string[] = []): Container {
  // env -i: the image's variables only (and what the test adds, as `docker run -e` would)
  const child = spawn('chroot', [`--userspec=${uid}:${gid}`, root, '/usr/bin/env', '-i', ...config.Env, ...extraEnv, 'sh', '-c', 'cd "$0" && exec "$@"', config.WorkingDir, ...command], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function listening(container: Container): Promise<void> {
  await eventually(() => {
    if (container.child.exitCode !== null) throw new Error(`serve exited ${container.child.exitCode}: ${container.stderr()}`);
    return /^listening on /m.test(container.stdout());
  }, 20_000, 'the "listening on" line');
}

/** Runs fn against a started server, which is stopped afterwards (by `signal`) whatever fn did. */
async function withServer(fn: (server: Container) => Promise<void>, command?: string[], signal: NodeJS.Signals = 'SIGKILL', env: string[] = []): Promise<void> {
  const server = start(command, env);
  try {
    await listening(server);
    await fn(server);
  } finally {
    server.child.kill(signal);
    await server.exited;
  }
}

async function api(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** Every file under a folder (not following links), for the secrets sweep; with `all`, its folders and links too. */
function* files(dir: string, all = false): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (all) yield path;
      yield* files(path, all);
    } else if (all || entry.isFile()) yield path;
  }
}

beforeAll(() => {
  if (!IMAGE) throw new Error('PINVOICE_IMAGE names the image to test (npm run test:container builds it)');
  if (process.getuid?.() !== 0) throw new Error('the image test runs its entrypoint under chroot: run it as root');
  // Docker's inspect has the health check in Config; podman's, beside it
  const [inspected] = JSON.parse(podman('image', 'inspect', IMAGE)) as { Config: ImageConfig; Healthcheck?: ImageConfig['Healthcheck'] }[];
  if (!inspected) throw new Error(`podman image inspect ${IMAGE}: no image`);
  config = { ...inspected.Config, Healthcheck: inspected.Config.Healthcheck ?? inspected.Healthcheck };
  sizeBytes = Number(podman('image', 'inspect', '--format', '{{.Size}}', IMAGE).trim());
  root = mkdtempSync(join(tmpdir(), 'pinvoice-image-'));
  chmodSync(root, 0o755); // the image's / (mkdtemp makes it 0700: the image's user could not enter it)
  const id = podman('create', IMAGE).trim();
  try {
    sh('sh', ['-c', `podman export "${id}" | tar -x -C "${root}"`]);
  } finally {
    podman('rm', id);
  }
  // as the runtime reads USER: a name or uid (root when there is none), and its group from /etc/passwd
  const name = (config.User || 'root').split(':')[0] ?? '';
  const user = readFileSync(join(root, 'etc/passwd'), 'utf8').split('\n').map((line) => line.split(':')).find((fields) => fields[0] === name || fields[2] === name);
  if (!user) throw new Error(`the image's user ${name} is not in its /etc/passwd`);
  uid = Number(user[2]);
  gid = Number(user[3]);
  // (a volume hides the image's /data: a token or profile built into it is looked for here, before)
  for (const dir of new Set(['/data', user[5] || '/data'])) {
    baked[dir] = existsSync(join(root, dir)) ? [...files(join(root, dir), true)].map((path) => path.slice(root.length)) : [];
  }
  // what the runtime mounts: /proc, /dev, and the volume (a host folder, as `-v folder:/data`)
  volume = mkdtempSync(join(tmpdir(), 'pinvoice-volume-'));
  chownSync(volume, uid, gid);
  for (const [args, target] of [
    [['-t', 'proc', 'proc'], 'proc'],
    [['--rbind', '/dev'], 'dev'],
    [['--bind', volume], 'data'],
  ] as const) {
    sh('mount', [...args, join(root, target)]);
    mounts.unshift(join(root, target));
  }
}, 300_000);

afterAll(() => {
  for (const target of mounts) spawnSync('umount', ['--recursive', '--lazy', target]);
  if (root && mounts.every((target) => !readFileSync('/proc/self/mountinfo', 'utf8').includes(` ${target} `))) rmSync(root, { recursive: true, force: true });
  if (volume) rmSync(volume, { recursive: true, force: true });
});

describe('the image', () => {
  it('is configured to run serve as an unprivileged user, on the /data volume, with a health check', () => {
    console.log(`image ${IMAGE}: ${(sizeBytes / 1e6).toFixed(0)} MB (goal ≤ ${SIZE_GOAL_MB} MB)`);
    expect(sizeBytes / 1e6).toBeLessThanOrEqual(SIZE_GOAL_MB);
    expect(config.Entrypoint).toEqual(['pinvoice']);
    expect(config.Cmd).toEqual(['serve', '--host', '0.0.0.0', '--db', '/data/pinvoice.db']);
    expect(uid, `USER ${config.User || '(none: root)'}`).toBeGreaterThan(0);
    expect(Object.keys(config.ExposedPorts ?? {})).toEqual(['4010/tcp']);
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
    expect(config.Healthcheck?.Test.join(' ')).toContain('/health');
    // Debian's nodejs, at least the version the package needs
    const node = spawnSync('chroot', [root, '/usr/bin/node', '--version'], { encoding: 'utf8' });
    const [major = 0, minor = 0] = node.stdout.trim().slice(1).split('.').map(Number);
    expect(major > 20 || (major === 20 && minor >= 19), `node ${node.stdout}`).toBe(true);
  });

  it('holds no token, secret or npm credential', () => {
    expect(config.Env.filter((entry) => /TOKEN|SECRET|PASSWORD/i.test(entry.split('=')[0] ?? ''))).toEqual([]);
    // the image's own /data and HOME (the same folder, as the Dockerfile makes its user), then the volume over /data
    expect(Object.keys(baked)).toContain('/data');
    for (const [dir, found] of Object.entries(baked)) expect(found, `what the image holds in ${dir}`).toEqual([]);
    expect(readdirSync(join(root, 'data'))).toEqual([]);
    const leftovers: string[] = [];
    for (const dir of ['root', 'opt/pinvoice', 'home', 'etc', 'run', 'tmp', 'var']) {
      if (!existsSync(join(root, dir))) continue;
      for (const path of files(join(root, dir))) {
        const name = path.slice(root.length);
        if (/(^|\/)\.npmrc$|\/run\/secrets\/|\/\.config\/pinvoice\//.test(name)) leftovers.push(name);
        else if (!name.includes('/node_modules/') && statSync(path).size < 4_000_000 && /pinv_(live|test)_[A-Za-z0-9]{16,}/.test(readFileSync(path, 'latin1'))) leftovers.push(name);
      }
    }
    expect(leftovers).toEqual([]);
  });
});

describe('serve in the image', () => {
  let token = '';
  let secureId = '';

  it('starts, prints the token once, answers /health and its own health check, creates a pix charge and reads it back', async () => {
    await withServer(async (server) => {
      // the first start made the company: its token, shown this once, on stderr (stdout is the one line;
      // the two pipes keep no order between them, so the token may come after the listening line)
      token = await eventually(() => /^\s+(pinv_\S+)$/m.exec(server.stderr())?.[1], 5_000, `the token on stderr (so far: ${server.stderr()})`).catch(() => '');
      expect(token, server.stderr()).toMatch(/^pinv_/);
      expect(server.stdout().trim().split('\n')).toEqual([`listening on http://0.0.0.0:${PORT}`]);
      expect((await fetch(`${BASE}/health`)).status).toBe(200);
      // the image's HEALTHCHECK, run as the runtime runs it (in the container, as its user)
      const [kind, ...check] = config.Healthcheck?.Test ?? [];
      expect(kind).toBe('CMD');
      const health = spawnSync('chroot', [`--userspec=${uid}:${gid}`, root, '/usr/bin/env', '-i', ...config.Env, ...check], { encoding: 'utf8', timeout: 5_000 });
      expect(health.status, health.stderr).toBe(0);

      const created = await api('/api/v2/invoices', token, { method: 'POST', body: PIX });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      secureId = String((created.body.data as { secureId: string }).secureId);
      const read = await api(`/api/v2/invoices/${secureId}`, token);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ secureId, amount: 1990, status: 'pending', paymentMethod: 'pix' });
      // the database is on the volume, owned by the image's user
      expect(statSync(join(volume, 'pinvoice.db')).uid).toBe(uid);
    });
  }, 60_000);

  it('keeps its charges on /data across a restart, without a new token', async () => {
    await withServer(async (server) => {
      expect(server.stderr()).not.toMatch(/pinv_/);
      const read = await api(`/api/v2/invoices/${secureId}`, token);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ secureId, amount: 1990 });
    });
  }, 60_000);

  it('stops on SIGTERM within 10 s with exit 0: a request in flight is answered, an idle keep-alive connection does not hold it', async () => {
    const server = start();
    await listening(server);
    const idle = createConnection(PORT, '127.0.0.1');
    await new Promise<void>((resolve, reject) => idle.once('connect', resolve).once('error', reject));
    idle.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((resolve) => idle.once('data', resolve));
    // a create whose body is still arriving when the signal comes
    const body = JSON.stringify(PIX);
    const busy = createConnection(PORT, '127.0.0.1');
    await new Promise<void>((resolve, reject) => busy.once('connect', resolve).once('error', reject));
    let answer = '';
    busy.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise((resolve) => busy.once('end', resolve).once('close', resolve));
    const half = Math.floor(body.length / 2);
    busy.write(`POST /api/v2/invoices HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    busy.write(body.slice(half));
    await answered;
    const { code, signal } = await server.exited;
    const took = Date.now() - sent;
    idle.destroy();
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThan(10_000);
    expect(server.stderr()).toMatch(/SIGTERM: finishing requests in flight and closing the database/);
  }, 30_000);

  it('leaves a postback it could not deliver for the next start, which delivers it', async () => {
    // a receiver's port, closed while the first server runs: its attempt fails and is retried later
    const port = await closedPort();
    const flags = ['--postback-base-delay', '2000'];
    const first = start([...config.Entrypoint, ...config.Cmd, ...flags]);
    let id = 0;
    try {
      await listening(first);
      const created = await api('/api/v2/invoices', token, { method: 'POST', body: { ...PIX, postback_url: `http://127.0.0.1:${port}/hook` } });
      expect(created.status).toBe(200);
      id = (created.body.data as { id: number }).id;
      expect((await api(`/api/v2/sandbox/invoices/${id}/pay`, token, { method: 'POST', body: {} })).status).toBe(200);
      await eventually(async () => /connection refused/.test(JSON.stringify((await api(`/api/v2/invoices/${id}/events`, token)).body)), 20_000, 'the first, failed attempt');
    } finally {
      first.child.kill('SIGTERM');
    }
    expect((await first.exited).code).toBe(0);

    const receiver = await startReceiver(() => 200, port);
    try {
      await withServer(async () => {
        const delivered = await eventually(() => receiver.received.find((entry) => entry.json?.event === 'invoice.paid'), 20_000, 'the postback, delivered by the second start');
        expect(delivered.json).toMatchObject({ event: 'invoice.paid' });
      }, [...config.Entrypoint, ...config.Cmd, ...flags], 'SIGTERM');
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('takes its token from PINVOICE_SERVE_TOKEN (as a CI service is given it) and writes it with --write-env to a mounted path, owner-only', async () => {
    const fresh = join(volume, 'fresh');
    mkdirSync(fresh);
    chownSync(fresh, uid, gid);
    const fixed = 'pinv_test_container_ci_0123456789';
    const command = [...config.Entrypoint, 'serve', '--host', '0.0.0.0', '--db', '/data/fresh/pinvoice.db', '--write-env', '/data/fresh/pinvoice.env'];
    await withServer(async () => {
      const env = readFileSync(join(fresh, 'pinvoice.env'), 'utf8');
      expect(/^PINVOICE_TOKEN='?([^'\s]+)'?$/m.exec(env)?.[1]).toBe(fixed);
      expect(statSync(join(fresh, 'pinvoice.env')).mode & 0o077).toBe(0);
      expect(env).toMatch(/^PINVOICE_BASE_URL=/m);
      expect((await api('/api/v2/company', fixed)).status).toBe(200);
    }, command, 'SIGTERM', [`PINVOICE_SERVE_TOKEN=${fixed}`]);
  }, 60_000);
});
