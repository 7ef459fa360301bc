// Ground floor (src/base): imports nothing of ours but src/domain.
// Text for GitHub-flavoured Markdown (docs/cli.md, the drift report for a PR comment): what Markdown
// or HTML would read as syntax escaped, and code spans that hold any text, inside a table too.

/** Plain text with Markdown's and HTML's syntax escaped; an underscore inside a word (PINVOICE_TOKEN) is never emphasis, so only one at a word's edge is. */
export function markdownEscape(plain: string): string {
  return plain.replace(/[\\`*[\]<>|&~]|^#|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, (char) => `\\${char}`);
}

/** A code span that holds any text, even one with backticks; `|` escaped, as GitHub's tables require even inside code. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const padded = longest > 0 ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\|/g, '\\|')}${fence}`;
}
