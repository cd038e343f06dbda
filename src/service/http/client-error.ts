import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode, Header, JSON_CONTENT_TYPE } from '../../wire/constants.js';
import { errorBody, ServiceError } from '../errors.js';

/** What Node's HTTP parser refused, as the service's own error: code, status and a message. */
function refusalOf(error: NodeJS.ErrnoException): ServiceError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError(
        ErrorCode.headersTooLarge,
        `the request line and headers must be at most ${maxHeaderSize} bytes in all, got more`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ServiceError(ErrorCode.bodyTooLarge, 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError(ErrorCode.requestTimeout, 'the request did not arrive in time');
    default:
      return new ServiceError(
        ErrorCode.requestMalformed,
        `the request is not valid HTTP/1.1: ${error.code ?? 'parse error'}`,
      );
  }
}

/**
 * Answers what Node's HTTP parser refuses before any route runs (over-long headers, malformed requests, slow
 * headers) with the same `{ error: { code, message, param } }` body as every other refusal, instead of Node's bare
 * status line. Like Node, it answers only on a connection that has not written anything yet (a keep-alive
 * connection mid-response gets no stray answer), and closes the connection.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as Duplex & { bytesWritten?: number }).bytesWritten !== 0
    ) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error);
    const body = JSON.stringify(errorBody(refusal));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n${Header.contentType}: ${JSON_CONTENT_TYPE}\r\n` +
        `${Header.contentLength}: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
