// The code samples of README.md, read from the file itself, so a test runs exactly what a reader copies.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const README = new URL('../../README.md', import.meta.url);

/** The fenced blocks of one language in a README section (from its heading to the next heading of its level or above). */
export function readmeBlocks(heading: string, language: string): string[] {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const level = /^#+/.exec(heading)?.[0].length ?? 2;
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level}} `));
  const section = end < 0 ? rest : rest.slice(0, end);
  const blocks = [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((match) => match[1] ?? '');
  if (blocks.length === 0) throw new Error(`README.md section "${heading}" has no ${language} block`);
  return blocks;
}

/** Writes a sample to a new temporary folder and answers its path. */
export function writeSample(name: string, code: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pinvoice-readme-')), name);
  writeFileSync(path, code);
  return path;
}

export const SIGNATURE_SECTION = '### Verifying the signature in your server';
