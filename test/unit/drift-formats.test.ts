// The drift report's formats: text for a terminal, Markdown for a PR comment, JUnit for a CI server.
// Each is given data with terminal controls and markup in it, which must come out harmless.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { DriftReport } from '../../src/api/drift.js';
import { createPalette } from '../../src/cli/render/colour.js';
import { useTimeZone } from '../../src/cli/render/time.js';
import { parseAcceptText } from '../../src/proxy/drift/accept.js';
import { renderJunit } from '../../src/cli/render/drift/junit.js';
import { renderMarkdown } from '../../src/cli/render/drift/markdown.js';
import { renderText } from '../../src/cli/render/drift/text.js';
import { buildReport } from '../../src/proxy/drift/report.js';
import { entry, finding } from '../support/drift.js';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const ACCEPT = parseAcceptText(JSON.stringify([
  { operation: 'createInvoice', kind: 'null', path: '/data/due_date', reason: 'gateway sends null before the boleto exists', until: '2026-12-31' },
  { operation: 'getTransaction', kind: 'format', path: '/data/created_at', reason: 'ticket | #7', until: '2026-11-30' },
]), 'accept.json');

async function sample(): Promise<DriftReport> {
  return buildReport([
    entry(1, [finding(), finding({ kind: 'null', severity: 'warning', path: '/data/due_date', expected: 'string', seen: 'null' })]),
    entry(2, [finding({ seen: 'string "a|b`c\u001b[2J<script>"' }), finding({ operation: 'getTransaction', kind: 'format', severity: 'warning', path: '/data/created_at', expected: 'timestamp, 3 fraction digits, Z', seen: 'timestamp, 6 fraction digits' })]),
    entry(3, [finding({ kind: 'unknown-field', severity: 'info', path: '/data/items/*/sku_\u202e', expected: 'no such member', seen: 'string "x & y"' })]),
  ], { now: NOW, accept: ACCEPT });
}

describe('text', () => {
  useTimeZone('UTC');

  it('a header with the counts, then a block per group, worst first, with no colour when the palette has none', async () => {
    const text = renderText(await sample(), createPalette(false));
    const blocks = text.split('\n\n');
    expect(blocks[0]).toBe('3 exchanges read, 3 with findings: 3 groups count (1 error, 1 warning, 1 info); 1 accepted; 1 acceptance expired (counted again)');
    expect(blocks[1]).toBe([
      'ERROR  type  createInvoice answer /data/total_price_cents  ×2',
      '  expected    integer',
      '  seen        string "1000"; string "a|b`c\\x1b[2J<script>"',
      '  first seen  2026-12-01 00:01:00 UTC',
      '  last seen   2026-12-01 00:02:00 UTC',
      '  entries     1, 2',
    ].join('\n'));
    expect(blocks[3]).toMatch(/^WARNING {2}format {2}getTransaction answer \/data\/created_at {2}×1\n[\s\S]*\n {2}acceptance expired \(until 2026-11-30\), counted again: ticket \| #7$/);
    expect(blocks[2]).toMatch(/^WARNING {2}null {2}createInvoice answer \/data\/due_date[\s\S]*\n {2}accepted until 2026-12-31: gateway sends null before the boleto exists$/);
    expect(blocks[4]).toMatch(/^INFO {2}unknown-field {2}createInvoice answer \/data\/items\/\*\/sku_\\u202e {2}×1/);
    for (const control of ['\u001b', '\u202e']) expect(text).not.toContain(control);
  });

  it('with colour, severities are painted and data is still escaped', async () => {
    const text = renderText(await sample(), createPalette(true));
    expect(text).toContain('\u001b[31mERROR\u001b[39m');
    expect(text).toContain('\\x1b[2J');
  });

  it('no findings: one line saying so', async () =>
    expect(renderText(await buildReport([entry(1, [])], { now: NOW }), createPalette(false))).toBe('1 exchange read, 0 with findings: no drift'));
});

describe('markdown', () => {
  it('a GitHub table, one row per group; | and backticks cannot break it, HTML is escaped, controls made visible', async () => {
    const markdown = renderMarkdown(await sample(), 'error');
    const lines = markdown.split('\n');
    expect(lines.slice(0, 5)).toEqual(['## Drift report', '', '3 exchanges read, 3 with findings: 3 groups count (1 error, 1 warning, 1 info); 1 accepted; 1 acceptance expired (counted again)', '', '**1 group at or above error fails the run**']);
    const rows = lines.filter((line) => line.startsWith('| '));
    expect(rows[0]).toBe('| severity | kind | operation | direction | path | count | expected | seen | first seen | last seen | entries | acceptance |');
    expect(rows).toHaveLength(5);
    // every row has as many cells as the header: no | from the data splits one
    const cells = (row: string) => row.replace(/\\\|/g, '').split('|').length;
    for (const row of rows) expect(cells(row)).toBe(cells(rows[0] ?? ''));
    expect(rows[1]).toBe('| **🔴 error** | `type` | `createInvoice` | answer | `/data/total_price_cents` | 2 | integer | `string "1000"`<br>`` string "a\\|b`c\\x1b[2J<script>" `` | 2026-12-01T00:01:00.000Z | 2026-12-01T00:02:00.000Z | 1, 2 |  |');
    expect(rows[3]).toContain('| acceptance expired (until 2026-11-30), counted again: ticket \\| #7 |');
    expect(markdown).toContain('`/data/items/*/sku_\\u202e`');
    for (const control of ['\u001b', '\u202e']) expect(markdown).not.toContain(control);
  });

  it('plain text from the data has its markup escaped', async () => {
    const report = await buildReport([entry(1, [finding({ expected: 'one of <b>a</b> & *b*' })])], { now: NOW });
    expect(renderMarkdown(report, 'never')).toContain('| one of \\<b\\>a\\</b\\> \\& \\*b\\* |');
  });
});

interface XmlNode { tag: string; attrs: Record<string, string>; text: string; children: XmlNode[] }

/** The document read by Python's XML parser (expat: strict, refuses anything not well-formed), as a tree. */
function parseXml(text: string): XmlNode {
  const script = `
import json, sys, xml.etree.ElementTree as ET
def node(e): return {"tag": e.tag, "attrs": dict(e.attrib), "text": e.text or "", "children": [node(c) for c in e]}
print(json.dumps(node(ET.fromstring(sys.stdin.buffer.read()))))`;
  const result = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`not well-formed XML: ${result.stderr}`);
  return JSON.parse(result.stdout) as XmlNode;
}

describe('junit', () => {
  it('well-formed; one testsuite per operation; a group at or above --fail-on is a failure, the others pass saying why', async () => {
    const root = parseXml(renderJunit(await sample(), 'warning', NOW));
    expect(root).toMatchObject({ tag: 'testsuites', attrs: { tests: '4', failures: '2', errors: '0' } });
    const suites = root.children;
    expect(suites.map((s) => [s.tag, s.attrs.name, s.attrs.tests, s.attrs.failures, s.attrs.timestamp])).toEqual([
      ['testsuite', 'drift createInvoice', '3', '1', '2026-12-01T12:00:00'],
      ['testsuite', 'drift getTransaction', '1', '1', '2026-12-01T12:00:00'],
    ]);
    const cases = suites.flatMap((s) => s.children);
    expect(cases.every((c) => c.tag === 'testcase' && c.attrs.classname?.startsWith('drift.') && c.attrs.name)).toBe(true);
    const outcome = (name: string) => cases.find((c) => c.attrs.name === name)?.children[0];
    expect(outcome('type createInvoice answer /data/total_price_cents')).toMatchObject({ tag: 'failure', attrs: { type: 'type', message: 'error type: expected integer' } });
    expect(outcome('type createInvoice answer /data/total_price_cents')?.text).toContain('seen: string "1000"; string "a|b`c\\x1b[2J<script>"');
    expect(outcome('null createInvoice answer /data/due_date')).toMatchObject({ tag: 'system-out' });
    expect(outcome('null createInvoice answer /data/due_date')?.text).toMatch(/^passes: accepted\n[\s\S]*accepted until 2026-12-31: gateway sends null/);
    expect(outcome('format getTransaction answer /data/created_at')?.tag).toBe('failure');
    expect(outcome('unknown-field createInvoice answer /data/items/*/sku_\\u202e')?.text).toMatch(/^passes: below --fail-on warning\n[\s\S]*seen: string "x & y"/);
  });

  it('at --fail-on error the warnings pass; no drift is one passing case', async () => {
    expect(parseXml(renderJunit(await sample(), 'error', NOW)).attrs.failures).toBe('1');
    const clean = parseXml(renderJunit(await buildReport([entry(1, [])], { now: NOW }), 'error', NOW));
    expect(clean.children[0]?.children.map((c) => [c.tag, c.attrs.name, c.children.map((x) => x.tag)])).toEqual([['testcase', 'no drift', ['system-out']]]);
  });

  it('characters XML cannot hold are removed, whatever reached the renderer', async () => {
    const report = await buildReport([entry(1, [finding({ expected: 'a\uFFFEb' })])], { now: NOW });
    const xml = renderJunit(report, 'error', NOW);
    expect(xml).toContain('expected ab');
    expect(() => parseXml(xml)).not.toThrow();
  });
});
