// `pinvoice openapi`: the OpenAPI document, generated from the operation table.
import { Command } from '../commander.js';
import { examples } from '../options.js';

export function openapiGroup() {
  return new Command('openapi')
    .description('print the OpenAPI 3.1 document of the API (the one `serve` publishes at /openapi.json)')
    .addHelpText('after', examples('pinvoice openapi > openapi.json', 'pinvoice openapi | jq ".paths | keys"'))
    .action(async () => (await import('./print.js')).printOpenApi());
}
