// Answers to requests Node refuses before the app sees them (headers too large, not HTTP, too slow),
// written straight to the socket in the contract's error body, then the connection is closed.
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { API_HEADERS } from './api-headers.js';
import { ApiError } from './errors.js';
import { seconds, type Limits } from './limits.js';

type ClientError = Error & { code?: string; reason?: string };

function answerFor(error: ClientError, limits: Limits): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout',
        `The request did not arrive in time (headers within ${seconds(limits.headersTimeoutMs)}, the whole request within ${seconds(limits.requestTimeoutMs)}); the connection is closed.`);
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'bad_request', `The request line and headers together are larger than ${maxHeaderSize / 1024} KiB.`);
    default:
      return new ApiError(400, 'bad_request', `The request is not valid HTTP${error.reason ? ` (${error.reason})` : ''}.`);
  }
}

function httpResponse(answer: ApiError): string {
  const body = JSON.stringify(answer.body());
  return [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    ...Object.entries(API_HEADERS).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** For fastify's clientErrorHandler: Node's own answers carry no contract body. */
export function clientErrorHandler(limits: Limits) {
  return (error: ClientError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // A response already begun (the app answered, the body is still arriving) cannot be replaced.
    const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || started) {
      socket.destroy();
      return;
    }
    socket.end(httpResponse(answerFor(error, limits)), () => socket.destroy());
  };
}
