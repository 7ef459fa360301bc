// A page's cursor: where the previous page ended (its last charge's created_at and id), which the
// next page starts after (keyset pagination: charges created meanwhile never shift a page). Opaque to
// clients: base64url, so that nobody builds one by hand and its form may change.

export interface Position {
  /** as stored: ISO 8601 UTC with milliseconds */
  created_at: string;
  id: number;
}

const FORM = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\d{1,15})$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.created_at} ${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor of ours holds, or undefined for anything else (one altered character included). */
export function decodeCursor(cursor: string): Position | undefined {
  if (!BASE64URL.test(cursor) || cursor.length > 64) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  // Node skips what is not base64url and ignores stray trailing bits: only the exact encoding counts.
  if (bytes.toString('base64url') !== cursor) return undefined;
  const match = FORM.exec(bytes.toString('utf8'));
  if (!match?.[1] || !match[2] || Number.isNaN(Date.parse(match[1]))) return undefined;
  return { created_at: match[1], id: Number(match[2]) };
}
