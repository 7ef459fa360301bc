// `pinvoice openapi`: the document generated from the operation table.
import { buildOpenApi } from '../api/openapi.js';
import { packageVersion } from '../version.js';

export async function printOpenApi(): Promise<void> {
  process.stdout.write(`${JSON.stringify(buildOpenApi(packageVersion()), null, 2)}\n`);
}
