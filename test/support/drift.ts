// Findings and journal entries for the drift report's tests, as the proxy's checks make them.
import type { Finding } from '../../src/api/findings.js';
import type { ReportEntry } from '../../src/proxy/drift/report.js';

export function finding(over: Partial<Finding> = {}): Finding {
  return { severity: 'error', kind: 'type', operation: 'createInvoice', direction: 'answer', status: 201, path: '/data/total_price_cents', expected: 'integer', seen: 'string "1000"', ...over };
}

/** Entry n at minute n of 2026-12-01 (UTC). */
export function entry(id: number, findings: Finding[]): ReportEntry {
  return { id, at: new Date(Date.UTC(2026, 11, 1, 0, id)).toISOString(), findings };
}
