// Characters that act on a terminal or a page instead of showing: C0 (tab and newline too: every
// field is one line), DEL, C1, the bidirectional controls (marks, embeddings, overrides, isolates)
// and the Unicode line and paragraph separators. One set for the server, which refuses them in
// requests, and the CLI, which makes them visible wherever data reaches a terminal.

/** Matches one such character (global, for replace). */
export const CONTROL_CHARACTERS = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/gu;

export function isControlCharacter(code: number): boolean {
  return /^[\p{Cc}\p{Bidi_Control}\u2028\u2029]$/u.test(String.fromCodePoint(code));
}

/** The first control character of a string, and its position counted in characters from 1; or undefined. */
export function findControlCharacter(value: string): { code: number; position: number } | undefined {
  let position = 0;
  for (const char of value) {
    position++;
    const code = char.codePointAt(0) ?? 0;
    if (isControlCharacter(code)) return { code, position };
  }
  return undefined;
}

/** "U+001B" */
export const codePointName = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** `must not contain control characters (U+001B at position 5)`, or undefined for a clean string. */
export function controlCharacterProblem(value: string, what = ''): string | undefined {
  const found = findControlCharacter(value);
  return found && `must not contain control characters (${codePointName(found.code)} at position ${found.position}${what})`;
}
