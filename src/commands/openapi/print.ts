// `pinvoice openapi`: the document generated from the operation table, as the server publishes it.
import { buildOpenApi } from '../../api/openapi.js';
import { createOutput } from '../../cli/output.js';
import { packageVersion } from '../../version.js';

export async function printOpenApi(): Promise<void> {
  createOutput({ json: true }).jsonData(buildOpenApi(packageVersion()));
}
