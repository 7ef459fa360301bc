import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data?.file;
}

export async function resolve(specifier, context, next) {
  if (file && !specifier.startsWith('.') && !specifier.startsWith('node:') && !specifier.startsWith('file:')) {
    appendFileSync(file, `${specifier}\n`);
  }
  return next(specifier, context);
}
