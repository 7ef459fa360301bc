// What a --db names: a SQLite file (or :memory:), or a URL. A URL of a kind this version cannot open
// is refused, naming it, instead of becoming a file called "postgres:" in the working folder.

/** `scheme://…`: anything a user would recognise as a URL rather than a file name */
const URL_LIKE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** postgres:// and postgresql:// name a PostgreSQL database; anything else is a SQLite file (or :memory:). */
export const isPostgresUrl = (location: string): boolean => /^postgres(?:ql)?:\/\//i.test(location);

/** Why this --db cannot be used, or undefined when it names a SQLite file, :memory: or a PostgreSQL database. */
export function locationProblem(location: string): string | undefined {
  const scheme = URL_LIKE.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined || isPostgresUrl(location)) return undefined;
  return `is a URL of a kind pinvoice does not know (${scheme}://): give a SQLite file path, :memory:, or postgres://USER:PASS@HOST:PORT/DB`;
}
