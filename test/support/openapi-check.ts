// Checks a response against the OpenAPI document the server publishes: the status must be declared
// for the operation, the body must validate against its schema, and a header of pinvoice's own
// (Pinvoice-…) must be declared on that response.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildOpenApi } from '../../src/api/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOC_ID = 'https://pinvoice.test/openapi.json';

type Json = Record<string, unknown>;

export function createResponseChecker(version = 'test') {
  const doc = buildOpenApi(version) as Json & { paths: Record<string, Record<string, Json>> };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const templates = Object.keys(doc.paths).map((path) => ({
    path,
    regex: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
  }));

  return function check(method: string, url: string, status: number, body: unknown, headers?: Headers): void {
    const pathname = new URL(url, 'http://x').pathname;
    const template = templates.find((t) => t.regex.test(pathname) && doc.paths[t.path]?.[method.toLowerCase()]);
    if (!template) {
      // Unknown routes answer the error body.
      if (status !== 404) throw new Error(`${method} ${pathname}: no operation in the OpenAPI document, yet status ${status}`);
      validate(ajv, '#/components/schemas/ErrorBody', body, `${method} ${pathname} 404`);
      return;
    }
    const operation = doc.paths[template.path]?.[method.toLowerCase()] as { responses: Record<string, Json> };
    const response = operation.responses[String(status)] as { content: { 'application/json': { schema: Json } }; headers?: Json } | undefined;
    if (!response) throw new Error(`${method} ${template.path}: status ${status} is not declared in the OpenAPI document`);
    const declared = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
    for (const [name] of headers ?? []) {
      if (name.startsWith('pinvoice-') && !declared.has(name)) throw new Error(`${method} ${template.path} ${status}: header ${name} is not declared in the OpenAPI document`);
    }
    const ref = response.content['application/json'].schema.$ref as string | undefined;
    if (ref) validate(ajv, ref, body, `${method} ${template.path} ${status}`);
  };
}

function validate(ajv: Ajv2020, ref: string, body: unknown, what: string): void {
  const validateFn = ajv.getSchema(`${DOC_ID}${ref}`);
  if (!validateFn) throw new Error(`no schema ${ref}`);
  if (!validateFn(body)) {
    throw new Error(`${what}: the body does not match the OpenAPI document: ${ajv.errorsText(validateFn.errors)}`);
  }
}
