// The code samples of README.md and docs/*.md, read from the files themselves, so a test runs exactly
// what a reader copies, wherever the text moves.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url);

/** A section of one of the repository's Markdown pages: the file (from the repository's root) and its heading line. */
export interface DocSection {
  file: string;
  heading: string;
}

/** The fenced blocks of one language in a section (from its heading to the next heading of its level or above, fences skipped). */
export function readmeBlocks(section: DocSection, language: string): string[] {
  const lines = readFileSync(new URL(section.file, ROOT), 'utf8').split('\n');
  const start = lines.indexOf(section.heading);
  if (start < 0) throw new Error(`${section.file} has no section "${section.heading}"`);
  const level = /^#+/.exec(section.heading)?.[0].length ?? 2;
  const blocks: string[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of lines.slice(start + 1)) {
    if (open) {
      if (line.startsWith('```')) {
        if (open.language === language) blocks.push(`${open.lines.join('\n')}\n`);
        open = undefined;
      } else open.lines.push(line);
    } else if (line.startsWith('```')) open = { language: line.slice(3).trim(), lines: [] };
    else if (new RegExp(`^#{1,${level}} `).test(line)) break;
  }
  if (blocks.length === 0) throw new Error(`${section.file} section "${section.heading}" has no ${language} block`);
  return blocks;
}

/** Writes a sample to a new temporary folder and answers its path. */
export function writeSample(name: string, code: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pinvoice-readme-')), name);
  writeFileSync(path, code);
  return path;
}

/** The postback handlers merchants copy (Node.js and PHP), and the replay-safe check. */
export const SIGNATURE_SECTION: DocSection = { file: 'docs/postbacks.md', heading: '## Verifying the signature in your server' };
