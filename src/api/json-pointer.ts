// A problem's path (validate.ts's `payer.cpf_cnpj`, `items[0].unit_price`) as a JSON pointer into the
// body, for the journal's problems and the proxy's findings alike.

/** One key as a pointer's segment (RFC 6901: `~` and `/` escaped). */
export const pointerSegment = (key: string): string =>
  (key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key);

/**
 * "payer.cpf_cnpj" -> "/payer/cpf_cnpj"; "items[0].unit_price" -> "/items/0/unit_price", or with
 * `anyIndex` "/items/*\/unit_price" (the findings' form: one path for every element). Query and header
 * paths stay named.
 */
export function pointer(path: string, { anyIndex = false } = {}): string {
  if (path === '(body)' || path === '') return '';
  if (/^(query|headers)\./.test(path)) return path;
  const segments = path.replace(/\[(\d+)\]/g, anyIndex ? '.*' : '.$1').split('.').filter((segment) => segment !== '');
  return segments.map((segment) => `/${pointerSegment(segment)}`).join('');
}
