// Ground floor (src/base): imports nothing of ours but src/domain.
// Kept apart from the readers so the entry point can recognise it without loading them.

/** The input a flag names cannot be used; its message names the flag (the CLI exits 2 with it). */
export class InputError extends Error {
  override readonly name = 'InputError';
}
