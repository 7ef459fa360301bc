// A request with a Host header of the test's choosing (fetch will not set one: it is a forbidden
// header), as a rebound page or a forged request sends it; answered as status, headers and text.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method?: string;
  /** the Host header, sent as given */
  host: string;
  headers?: Record<string, string>;
  body?: string;
  /** a CA to trust for an https: URL */
  ca?: string;
}

/** `url` names where to connect (its path included); `host` is what the request says it is for. */
export function rawRequest(url: string, options: RawRequest): Promise<RawReply> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const sent = client.request(
      {
        hostname: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? 'GET',
        headers: { ...options.headers, host: options.host, ...(options.body !== undefined && { 'content-length': String(Buffer.byteLength(options.body)) }) },
        ...(options.ca !== undefined && { ca: options.ca, servername: 'localhost' }),
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, text: Buffer.concat(chunks).toString('utf8') }));
        answer.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** The dashboard's session cookie a reply sets, if any. */
export const cookieOf = (reply: RawReply) => /^pinvoice_dashboard=([^;]*)/.exec(String(reply.headers['set-cookie'] ?? ''))?.[1];

/** A sign-in link asked of a server (`url`, `token`) by a request that names `host`. */
export const askLink = (server: { url: string; token: string }, host: string) =>
  rawRequest(`${server.url}/api/v2/sandbox/dashboard/links`, { method: 'POST', host, headers: { authorization: `Bearer ${server.token}` } });

/** A form's body type, as a browser posts it. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
