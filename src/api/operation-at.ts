// Which operation of the table a request is, from its method and path as sent (not as a router would
// take them: a gateway's own paths reach the proxy too). `{param}` stands for one path segment; a
// trailing slash is the same path (production's router takes both). The literal wins over a parameter
// (`/api/v2/sandbox/requests/find` is not `/api/v2/sandbox/requests/{id}`).
import { OPERATIONS, type Operation } from './operations.js';

interface Template {
  operation: Operation;
  segments: string[];
  literals: number;
}

const TEMPLATES: Template[] = (OPERATIONS as readonly Operation[])
  .map((operation) => {
    const segments = operation.path.split('/').filter((segment) => segment !== '');
    return { operation, segments, literals: segments.filter((segment) => !segment.startsWith('{')).length };
  })
  .sort((a, b) => b.literals - a.literals);

/** The answers given (the proxy asks for every exchange, of a few paths most often), at most 1,024: then begun anew. */
const found = new Map<string, Operation | null>();
const FOUND_KEPT = 1024;

/** The operation `method path` is (path without its query), or undefined when it is none of the table's. */
export function operationAt(method: string, path: string): Operation | undefined {
  const upper = method.toUpperCase();
  const wanted = upper === 'HEAD' ? 'GET' : upper;
  const key = `${wanted} ${path}`;
  const known = found.get(key);
  if (known !== undefined) return known ?? undefined;
  const segments = path.split('/').filter((segment) => segment !== '');
  const operation = TEMPLATES.find(({ operation, segments: template }) =>
    operation.method === wanted && template.length === segments.length
    && template.every((segment, i) => segment.startsWith('{') ? segments[i] !== '' : segment === segments[i]))?.operation;
  if (found.size >= FOUND_KEPT) found.clear();
  found.set(key, operation ?? null);
  return operation;
}
