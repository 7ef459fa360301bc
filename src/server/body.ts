// How request bodies are read: JSON in UTF-8, not compressed, nested no deeper than the limit, and
// within a server-wide budget of body bytes in flight (slow senders cannot pile up memory).
import { isUtf8 } from 'node:buffer';
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Limits } from './limits.js';

/** The charset parameter of a Content-Type, lower-cased and unquoted; undefined when there is none. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  return match ? (match[2] ?? '').toLowerCase() : undefined;
}

/** True when the JSON text opens more than `limit` objects and arrays inside one another; no recursion. */
export function nestedDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';

/** Refused from the headers alone, before a byte of the body is read. */
function checkHeaders(request: FastifyRequest): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ApiError(415, 'unsupported_media_type', `Content-Encoding "${encoding}" is not supported; send the body uncompressed.`);
  }
  const charset = charsetOf(request.headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(415, 'unsupported_media_type', `The charset "${charset}" is not supported; send JSON in UTF-8 ("Content-Type: application/json").`);
  }
}

/**
 * Counts the body bytes of unfinished requests; a request that would go past the budget fails with 503.
 * A body of declared length (Content-Length, which Node holds the sender to) is counted whole before it
 * is read, with no stream in between; a chunked one is counted chunk by chunk as it arrives.
 */
function createBudget(limitBytes: number) {
  let inFlight = 0;
  const busy = () => new ApiError(503, 'server_busy', 'The server holds too many unfinished request bodies; retry shortly.', undefined, { connection: 'close' });
  return (payload: Readable, declared: number | undefined, onClose: (release: () => void) => void): Readable => {
    let held = 0;
    onClose(() => {
      inFlight -= held;
      held = 0;
    });
    if (declared !== undefined) {
      if (inFlight + declared > limitBytes) throw busy();
      inFlight += declared;
      held = declared;
      return payload;
    }
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (inFlight + chunk.length > limitBytes) return done(busy());
        inFlight += chunk.length;
        held += chunk.length;
        done(null, chunk);
      },
    });
    // pipe() does not pass errors on: a client gone mid-body must still end the read.
    payload.once('error', (error) => meter.destroy(error));
    return payload.pipe(meter);
  };
}

export function installBodyRules(app: FastifyInstance, limits: Limits): void {
  const meter = createBudget(limits.bodyBudgetBytes);
  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBody(request)) return payload;
    checkHeaders(request);
    // A declared length beyond the body limit is refused (413) before a byte is read: nothing to hold.
    const length = request.headers['transfer-encoding'] === undefined ? Number(request.headers['content-length']) : Number.NaN;
    const declared = Number.isSafeInteger(length) && length >= 0 ? Math.min(length, limits.bodyBytes) : undefined;
    return meter(payload, declared, (release) => reply.raw.once('close', release));
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(new ApiError(400, 'invalid_json', 'The body is not valid UTF-8; send JSON encoded in UTF-8.'), undefined);
    const text = bytes.toString('utf8');
    if (nestedDeeper(text, limits.depth)) {
      return done(new ApiError(400, 'invalid_json', `The body nests objects and arrays deeper than ${limits.depth} levels.`), undefined);
    }
    parseJson(request, text, done);
  });
}
