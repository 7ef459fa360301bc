import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data?.file;
}

// One line per package a process resolves (its bare name), and per module of our own (its file: URL).
export async function resolve(specifier, context, next) {
  if (file && !specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) {
    appendFileSync(file, `${specifier}\n`);
  }
  const resolved = await next(specifier, context);
  if (file && specifier.startsWith('.') && resolved.url.startsWith('file:') && !resolved.url.includes('/node_modules/')) {
    appendFileSync(file, `${resolved.url}\n`);
  }
  return resolved;
}
