// What a --db names: a SQLite file (or :memory:), or a URL. A URL of a kind this version cannot open
// is refused, naming it, instead of becoming a file called "postgres:" in the working folder.

/** `scheme://…`: anything a user would recognise as a URL rather than a file name */
const URL_LIKE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** Why this --db cannot be used, or undefined when it names a SQLite file or :memory:. */
export function locationProblem(location: string): string | undefined {
  const scheme = URL_LIKE.exec(location)?.[1]?.toLowerCase();
  if (scheme === undefined) return undefined;
  if (scheme === 'postgres' || scheme === 'postgresql') {
    return `is a PostgreSQL URL, and this version of pinvoice serve stores its data in SQLite only: give a file path (or :memory:)`;
  }
  return `is a URL of a kind pinvoice does not know (${scheme}://): give a SQLite file path, or :memory:`;
}
