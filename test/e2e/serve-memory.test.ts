// `serve --memory lean` end to end, with the built binary over real HTTP: after creates and lookups
// that grow V8's young generation to its default 2 × 16 MB under `--memory fast`, /metrics (parsed by
// a Prometheus text-format parser) shows it held within 8 MB; an unknown mode is refused before serve
// listens, naming the flag (exit 2). The journal's worker thread starts meanwhile: its start sets V8's
// flags back, and the bound must hold through it (src/base/lean-heap.ts).
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { YOUNG_BYTES } from '../../src/base/lean-heap.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { scrape } from '../support/metrics.js';
import { call, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, startServe, workDir } from '../support/processes.js';

const TOKEN = 'pinv_test_serve_memory_token_012';

afterAll(async () => {
  await killAll();
  removeWorkDirs();
});

describe(`serve --memory (${ENGINE})`, () => {
  it.runIf(ENGINE === 'sqlite')('lean: the young generation stays within 8 MB under creates and lookups', { timeout: 90_000 }, async () => {
    const { dir, env } = workDir('pinvoice-serve-memory-');
    const node = await startServe(['--port', '0', '--db', await dbFor(dir, 'memory'), '--token', TOKEN, '--memory', 'lean'], env);
    const created = await mapLimit(Array.from({ length: 1500 }), 8, () => call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody()));
    expect(created.find((answer) => answer.status !== 200)).toBeUndefined();
    const ids = created.map((answer) => answer.body.data.secureId as string);
    for (let round = 0; round < 3; round++) await mapLimit(ids, 8, (id) => call(node.url, TOKEN, 'GET', `/api/v2/invoices/${id}`));
    const metrics = await scrape(node.url);
    const young = metrics.value('nodejs_heap_space_size_total_bytes', { space: 'new' });
    expect(young).toBeGreaterThan(0);
    expect(young).toBeLessThanOrEqual(YOUNG_BYTES);
  });

  it.runIf(ENGINE === 'sqlite')('refuses --memory huge before it listens, naming the flag and the modes', () => {
    const result = spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--db', ':memory:', '--memory', 'huge'], { env: cleanEnv({}), encoding: 'utf8', timeout: 15_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--memory');
    expect(result.stderr).toContain('fast, lean');
    expect(result.stdout).toBe('');
  });
});
