import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLinesFlag, type InputLine } from '../../src/base/read-lines.js';
import { CliError } from '../../src/cli/errors.js';
import { ApiRequestError, NetworkError, UnexpectedResponseError } from '../../src/client/errors.js';
import { batchConflicts, checkBatchFlags, checkSingleFlags, flagName } from '../../src/commands/invoice/batch-flags.js';
import { batchKey, failedLine, readLine, type BatchResult } from '../../src/commands/invoice/batch-line.js';
import { progressLine, summaryLine } from '../../src/commands/invoice/batch-progress.js';
import { createScheduler } from '../../src/commands/invoice/batch-run.js';

const SHA = 'a'.repeat(32) + 'b'.repeat(32);
const PIX = { method: 'pix', total_price_cents: 1990, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' }, items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }] };
const usage = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof CliError && error.exitCode === 2) return error.message;
    throw error;
  }
  throw new Error('no usage error');
};

describe('the Idempotency-Key of a line', () => {
  it('is pinvoice-batch-<first 32 hex of the SHA-256>-<line>', () => expect(batchKey(SHA, 7)).toBe(`pinvoice-batch-${'a'.repeat(32)}-7`));
  it('fits the server\'s 255 printable characters', () => expect(batchKey(SHA, 10_000_000)).toMatch(/^[\x21-\x7e]{1,255}$/));
});

describe('flags that go with --batch', () => {
  it('names an option as typed', () => {
    expect(flagName('payerName', 'x')).toBe('--payer-name');
    expect(flagName('qr', false)).toBe('--no-qr');
    expect(flagName('dryRun', true)).toBe('--dry-run');
  });

  it('takes its own, the connection\'s, --json and --no-input; refuses the rest, naming each', () => {
    expect(batchConflicts({ batch: 'f', concurrency: 4, out: 'o', json: true, profile: 'p', baseUrl: 'u', debug: true, color: false, input: false })).toEqual([]);
    expect(batchConflicts({ batch: 'f', method: 'pix', idempotencyKey: 'k', file: '-', dryRun: true, qr: false, item: ['a:1:1'] }))
      .toEqual(['--method', '--idempotency-key', '--file', '--dry-run', '--no-qr', '--item']);
    expect(usage(() => checkBatchFlags({ batch: 'f', postbackUrl: 'https://x' } as never))).toMatch(/^--batch does not go with --postback-url:/);
  });

  it('defaults --concurrency to 16; --concurrency and --out without --batch are refused', () => {
    expect(checkBatchFlags({ batch: 'f' } as never)).toEqual({ path: 'f', concurrency: 16, out: undefined });
    expect(usage(() => checkSingleFlags({ concurrency: 2 } as never))).toBe('--concurrency goes with --batch only');
    expect(usage(() => checkSingleFlags({ concurrency: 2, out: 'o' } as never))).toBe('--concurrency and --out go with --batch only');
    expect(() => checkSingleFlags({ file: 'f' } as never)).not.toThrow();
  });
});

describe('a line', () => {
  it('holds a request, checked and normalized as a single create\'s', () => {
    const read = readLine({ number: 1, text: JSON.stringify({ ...PIX, payer: { ...PIX.payer, name: ' Fulano de Tal ' } }) });
    expect(read).toEqual({ request: expect.objectContaining({ method: 'pix', total_price_cents: 1990, payer: PIX.payer }) });
  });

  it('with a field the API does not know fails as unknown_fields, naming it with a did-you-mean; allowed, it is sent', () => {
    const text = JSON.stringify({ postback: 'https://x', ...PIX, payer: { ...PIX.payer, emial: 'x' } });
    expect(readLine({ number: 2, text })).toEqual({
      failed: {
        line: 2, ok: false, error: 'unknown_fields', message: 'postback: is not a field of this request; did you mean postback_url? (and 1 more problem; see details)',
        details: [
          { path: 'postback', message: 'is not a field of this request; did you mean postback_url?' },
          { path: 'payer.emial', message: 'is not a field of this request; did you mean payer.email?' },
        ],
      },
    });
    expect(readLine({ number: 2, text }, { allowUnknownFields: true })).toEqual({ request: expect.objectContaining({ postback: 'https://x', payer: { ...PIX.payer, emial: 'x' } }) });
  });

  it('that is not UTF-8, not JSON, not an object or not valid is a failed result, with JSON paths', () => {
    const failed = (input: InputLine) => ('failed' in readLine(input) ? (readLine(input) as { failed: BatchResult }).failed : undefined);
    expect(failed({ number: 2, problem: 'not UTF-8 text (at column 3)' })).toEqual({ line: 2, ok: false, error: 'invalid_json', message: 'not JSON: not UTF-8 text (at column 3)', details: [] });
    expect(failed({ number: 3, text: '{"method": ' })).toMatchObject({ line: 3, error: 'invalid_json', message: expect.stringMatching(/^not JSON: /) });
    expect(failed({ number: 4, text: '[1]' })).toMatchObject({ error: 'validation_failed', details: [{ path: '(body)', message: 'must be a JSON object, not array' }] });
    const bad = failed({ number: 5, text: JSON.stringify({ ...PIX, total_price_cents: 1, payer: { ...PIX.payer, cpf_cnpj: '111.111.111-11' } }) });
    expect(bad).toMatchObject({ error: 'validation_failed', message: expect.stringMatching(/\(and 1 more problem; see details\)$/) });
    expect((bad as { details: { path: string }[] }).details.map((d) => d.path).sort()).toEqual(['payer.cpf_cnpj', 'total_price_cents']);
  });

  it('failed by the server keeps its code and details; network and odd answers have their own codes; anything else is not a line\'s', () => {
    expect(failedLine(1, new ApiRequestError(409, 'idempotency_conflict', 'used', []))).toMatchObject({ error: 'idempotency_conflict', message: 'used' });
    expect(failedLine(1, new NetworkError('cannot connect'))).toMatchObject({ error: 'network', message: 'cannot connect' });
    expect(failedLine(1, new UnexpectedResponseError('odd'))).toMatchObject({ error: 'unexpected_response' });
    expect(failedLine(1, new TypeError('bug'))).toBeUndefined();
  });
});

describe('the lines of a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pinvoice-lines-'));

  it('are numbered as an editor numbers them: blank lines skipped, CRLF and a last line without newline read, bad UTF-8 said', async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":1}\r\n\n  \t\n{"b":2}\n'), Buffer.from([0x7b, 0xe9, 0x7d]), Buffer.from('\n{"c":3}')]);
    const path = join(dir, 'mixed.ndjson');
    writeFileSync(path, bytes);
    const source = await openLinesFlag('--batch', path);
    expect(source.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(source.count).toBe(4);
    const lines: InputLine[] = [];
    for await (const line of source.lines()) lines.push(line);
    expect(lines).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 4, text: '{"b":2}' },
      { number: 5, problem: 'not UTF-8 text (at column 2)' },
      { number: 6, text: '{"c":3}' },
    ]);
    expect(source.changed()).toBe(false);
  });

  it('a file that is missing is refused naming the flag', async () => {
    await expect(openLinesFlag('--batch', join(dir, 'none.ndjson'))).rejects.toThrow(`--batch: ${join(dir, 'none.ndjson')} does not exist`);
  });
});

describe('the scheduler', () => {
  const lines = (n: number) => (async function* () {
    for (let i = 1; i <= n; i++) yield { number: i, text: '' };
  })();
  const ok = (line: number): BatchResult => ({ line, ok: true, id: line, secureId: `INV-${line}`, status: 'pending' });

  it('writes results in input order whatever order they finish in, with at most --concurrency in flight', async () => {
    const scheduler = createScheduler(3);
    let inFlight = 0;
    let most = 0;
    const written: number[] = [];
    await scheduler.run(lines(20), async (input) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, (21 - input.number) % 4));
      inFlight--;
      return ok(input.number);
    }, (results) => written.push(...results.map((r) => r.line)));
    expect(written).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(most).toBe(3);
  });

  it('halves the window on a 429, once per window, and grows it back by one per window of successes', async () => {
    const scheduler = createScheduler(8);
    const windows: number[] = [];
    await scheduler.run(lines(40), async (input) => {
      if (input.number === 9) [1, 2, 3].forEach(() => scheduler.slowDown()); // one burst of 429s
      else scheduler.succeeded();
      windows.push(scheduler.window());
      return ok(input.number);
    }, () => undefined);
    expect(windows.slice(0, 9)).toEqual([8, 8, 8, 8, 8, 8, 8, 8, 4]);
    expect(windows.slice(9, 18)).toEqual([4, 4, 4, 5, 5, 5, 5, 5, 6]);
    expect(windows.at(-1)).toBe(8);
  });

  it('starts nothing after a stop; what is in flight finishes and is written', async () => {
    const scheduler = createScheduler(4);
    const written: number[] = [];
    await scheduler.run(lines(100), async (input) => {
      if (input.number === 6) scheduler.stop();
      await new Promise((resolve) => setTimeout(resolve, 5));
      return ok(input.number);
    }, (results) => written.push(...results.map((r) => r.line)));
    expect(written).toEqual([1, 2, 3, 4, 5, 6]);
    expect(scheduler.stopped.aborted).toBe(true);
  });

  it('a result that cannot be written stops the batch, and run() throws it once the lines in flight are done', async () => {
    const scheduler = createScheduler(4);
    let finished = 0;
    const full = new Error('ENOSPC: no space left on device');
    const running = scheduler.run(lines(100), async (input) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      finished++;
      return ok(input.number);
    }, () => {
      throw full;
    });
    await expect(running).rejects.toBe(full);
    expect(finished).toBeLessThan(10);
    expect(scheduler.stopped.aborted).toBe(true);
  });

  it('when reading the input fails midway, the lines in flight are answered and written before run() throws', async () => {
    const broken = (async function* () {
      for (let i = 1; i <= 3; i++) yield { number: i, text: '' };
      throw new Error('EIO: i/o error, read');
    })();
    const written: number[] = [];
    const running = createScheduler(4).run(broken, async (input) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return ok(input.number);
    }, (results) => written.push(...results.map((r) => r.line)));
    await expect(running).rejects.toThrow('EIO');
    expect(written).toEqual([1, 2, 3]);
  });
});

describe('what a batch says on stderr', () => {
  const tally = { done: 10_000, created: 9_998, replayed: 12, failed: 2 };
  it('the summary', () => expect(summaryLine(tally, 3.1)).toBe('batch: 10,000 lines, 9,998 created (12 replayed), 2 failed, 3.1 s (3,226/s)'));
  it('one line', () => expect(summaryLine({ done: 1, created: 1, replayed: 0, failed: 0 }, 0.5)).toBe('batch: 1 line, 1 created (0 replayed), 0 failed, 0.5 s (2/s)'));
  it('the plain progress line', () => expect(progressLine({ ...tally, done: 4_000 }, 10_000, 1.0126)).toBe('batch: 4,000 of 10,000 lines, 3,950/s, 2 failed'));
});
