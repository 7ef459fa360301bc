// How the user started pinvoice, for commands we suggest they paste: through npx (npm sets
// npm_command=exec), a suggestion needs npx too.

/** `npx pinvoice` when started through npx, else `pinvoice`. */
export function invocation(): string {
  return process.env.npm_command === 'exec' ? 'npx pinvoice' : 'pinvoice';
}
