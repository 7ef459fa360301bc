// The path patterns of the inspector's filters and finds: `*` stands for any run of characters.
/** A path pattern of the journal's filters: `*` stands for any run of characters, anything else is itself. */
export function pathMatcher(glob: string): (path: string) => boolean {
  if (!glob.includes('*')) return (path) => path === glob;
  const pattern = new RegExp(`^${glob.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return (path) => pattern.test(path);
}
