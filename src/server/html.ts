// What the pages serve renders share (the payer's checkout page, the merchant's dashboard): HTML made
// safe by construction (every value interpolated by `html` is escaped unless `html` made it), the
// headers every page answers with, and the check that a form came from one of the server's own pages.
import type { FastifyRequest } from 'fastify';

/** Every page: nothing from elsewhere, no inline script or style, no framing, never cached. */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // other sites never see a page's URL (a checkout's is its key); not no-referrer: under it a
  // browser's form posts say `Origin: null`, and sameOrigin could not tell them from another site's
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** Whether a POST came from a page of this server (a browser always says where a form's POST came from). */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A piece of HTML that is already safe; only `html` makes one. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = SafeHtml | string | number | null | undefined | false | readonly Part[];

function part(value: Part): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(String(value));
}

/** A template tag: every interpolated value is escaped unless it is SafeHtml (made by this tag). */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => (out += part(value) + (strings[i + 1] ?? '')));
  return new SafeHtml(out);
}

/** Markup made by a trusted library (an SVG of a QR code or a barcode), let through as is. */
export const trusted = (markup: string) => new SafeHtml(markup);
