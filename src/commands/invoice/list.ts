// `pinvoice invoice list`: the company's charges from `pinvoice serve`'s listing, newest first, as a
// table, JSON, NDJSON or CSV; --all walks every page, writing each as it comes (constant memory), with
// a progress line on a terminal.
import { connect } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { safeJson } from '../../cli/render/safe-text.js';
import type { Client, InvoicePage } from '../../client/index.js';
import type { InvoiceListFlags } from './index.js';
import { listQuery } from './list-query.js';

const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
type Format = (typeof FORMATS)[number];
/** Charges asked for per request unless --page-size says otherwise. */
const PAGE_SIZE = 100;

/** How each format writes a page, and what it writes before the first and after the last. */
async function writer(format: Format, out: Output) {
  const write = (text: string) => void process.stdout.write(text);
  if (format === 'ndjson') return { page: (page: InvoicePage) => page.records.forEach((record) => out.jsonLine(JSON.stringify(record))), end: () => undefined };
  if (format === 'json') {
    let first = true;
    write('[');
    return {
      page: (page: InvoicePage) => page.records.forEach((record) => {
        write(`${first ? '\n' : ',\n'}${safeJson(JSON.stringify(record, null, 2)).replace(/^/gm, '  ')}`);
        first = false;
      }),
      end: () => write(first ? ']\n' : '\n]\n'),
    };
  }
  if (format === 'csv') {
    const { CSV_HEADER, csvRow } = await import('../../cli/render/charge-list.js');
    out.data(CSV_HEADER.join(','));
    return { page: (page: InvoicePage) => page.views.length > 0 && out.data(page.views.map(csvRow).join('\n')), end: () => undefined };
  }
  const { renderChargeTable } = await import('../../cli/render/charge-list.js');
  let shown = 0;
  return {
    page: (page: InvoicePage) => {
      if (page.views.length > 0 || shown === 0) out.data(renderChargeTable(page.views, out.palette));
      shown += page.views.length;
    },
    end: () => undefined,
  };
}

async function* pages(client: Client, query: Record<string, string>, wanted: number | undefined, size: number): AsyncGenerator<InvoicePage> {
  let cursor: string | undefined;
  let left = wanted ?? Infinity;
  do {
    const limit = Math.min(left, size);
    const page = await client.listInvoices({ ...query, limit: String(limit), ...(cursor && { cursor }) });
    // a page larger than asked (a server of its own mind) is cut to what was asked
    const taken = page.records.length > left ? { ...page, records: page.records.slice(0, left), views: page.views.slice(0, left) } : page;
    yield taken;
    left -= taken.records.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined && left > 0);
}

export async function listInvoices(flags: InvoiceListFlags): Promise<void> {
  const format: Format = flags.json ? 'json' : ((flags.format ?? 'table') as Format);
  if (!FORMATS.includes(format)) throw usageError(`--format: "${flags.format}" is not one of ${FORMATS.join(', ')}`);
  if (flags.all && flags.limit !== undefined) throw usageError('use either --all or --limit, not both');
  const query = listQuery(flags);
  const out = createOutput({ ...flags, json: format !== 'table' });
  const { client } = await connect(flags);
  const write = await writer(format, out);
  const progress = flags.all && process.stderr.isTTY === true;
  let count = 0;
  try {
    for await (const page of pages(client, query, flags.all ? undefined : (flags.limit ?? 50), flags.pageSize ?? PAGE_SIZE)) {
      write.page(page);
      count += page.records.length;
      if (progress) process.stderr.write(`\r${count} charge${count === 1 ? '' : 's'} so far…`);
    }
  } finally {
    // spaces, not an erase sequence (NO_COLOR and TERM=dumb get no escape); the count only grows
    if (progress) process.stderr.write(`\r${' '.repeat(40)}\r`);
  }
  write.end();
  const noun = `${count} charge${count === 1 ? '' : 's'}`;
  if (format === 'table') out.message(`${noun}; ${(await import('../../cli/render/charge-list.js')).zoneNote()}`);
  else if (flags.all) out.message(noun);
}
