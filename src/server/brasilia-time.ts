// Instants as Brazilians read them on the server's pages (the checkout page, the dashboard): pt-BR,
// Brasília time. A formatter is made at its first use, not when its page's module loads: one with a
// time zone maps ~6 MB of ICU's data into a serve that may never render a page.

/** A formatter of `Date`s in Brasília time with these fields, made the first time it is called. */
export function brasiliaTime(fields: Intl.DateTimeFormatOptions): (at: Date) => string {
  let format: Intl.DateTimeFormat | undefined;
  return (at) => (format ??= new Intl.DateTimeFormat('pt-BR', { ...fields, timeZone: 'America/Sao_Paulo' })).format(at);
}
