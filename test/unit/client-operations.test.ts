import { expect, it } from 'vitest';
import { operationsModule } from '../support/client-operations.js';

it('src/client/operations.ts is generated from the operation table (run this test with -u after changing it)', async () => {
  await expect(operationsModule()).toMatchFileSnapshot('../../src/client/operations.ts');
});
