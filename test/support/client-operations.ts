// Writes src/client/operations.ts from the operation table (src/api/operations.ts), so that the client
// builds paths and names operations without loading zod, which the table's schemas need.
import { OPERATIONS } from '../../src/api/operations.js';

const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function operationsModule(): string {
  const lines = OPERATIONS.map((op) => {
    const { sandbox, extension: named } = op as { sandbox?: boolean; extension?: string };
    const extension = sandbox ? 'sandbox controls' : named;
    return `  ${op.id}: { name: ${quote(op.name)}, path: ${quote(op.path)}${extension ? `, extension: ${quote(extension)}` : ''} },`;
  });
  return [
    '// Generated from the operation table (src/api/operations.ts) by test/unit/client-operations.test.ts, which',
    '// fails when this file no longer matches it: run that test with -u to write it again. Do not edit by hand.',
    '// Each operation\'s name (for messages) and path; `extension` for those only `pinvoice serve` has, named',
    '// as the CLI says a gateway lacks them.',
    'export const OPERATIONS = {',
    ...lines,
    '} as const;',
    '',
    'export type OperationId = keyof typeof OPERATIONS;',
    '',
  ].join('\n');
}
