import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { IdGenerator } from '../../../application/ports/id-generator';
import type { Logger } from '../../../application/ports/logger';
import { ERROR_TABLE } from './error-table';
import type { HttpError } from './http-errors';
import { problemBody } from './problem';

/** How long a client may take, and how many may connect at once. */
export interface ServerLimits {
  /** Until the request's headers are complete; then 408 and the connection is closed. */
  readonly headersTimeoutMs: number;
  /** Until the whole request, body included, is received; then 408 and the connection is closed. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections beyond this are closed as soon as they are accepted. */
  readonly maxConnections: number;
  /** Open connections from one address beyond this are closed as soon as they are accepted, so one address cannot take every slot. */
  readonly maxConnectionsPerAddress: number;
}

/** Closes a new connection from an address that already holds `max` open ones. */
const capPerAddress = (server: Server, max: number): void => {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
};

/** Node's own codes for what it refuses before a request reaches Koa. */
const clientErrorOf = (code: unknown): Extract<HttpError, { _tag: 'MalformedRequest' | 'RequestTimeout' | 'HeadersTooLarge' }> =>
  code === 'HPE_HEADER_OVERFLOW'
    ? { _tag: 'HeadersTooLarge' }
    : code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT'
      ? { _tag: 'RequestTimeout' }
      : { _tag: 'MalformedRequest' };

/**
 * What Node answers itself (a malformed request, headers too large, a request too slow) as the
 * service answers everything else: an RFC 9457 problem with a request id in the body and in
 * `X-Request-Id`, and a log line. A request that had reached Koa keeps the id it was given there.
 */
const answerClientError = (socket: Socket, err: NodeJS.ErrnoException, ids: IdGenerator, logger: Logger): void => {
  const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent === true) {
    socket.destroy();
    return;
  }
  const known = pending?.getHeader('x-request-id');
  const requestId = typeof known === 'string' ? known : ids.next('req');
  const error = clientErrorOf(err.code);
  const { status, title } = ERROR_TABLE[error._tag];
  const body = JSON.stringify(problemBody(error, requestId));
  logger.warn('request refused before routing', { requestId, status, reason: err.code ?? 'unknown' });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/** An HTTP server for `app` with the limits set and Node's own refusals answered as problems. */
export const createHttpServer = (app: { callback(): RequestListener }, limits: ServerLimits, ids: IdGenerator, logger: Logger): Server => {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often Node looks for requests past their timeouts: often enough that a timeout means it.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    app.callback(),
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  capPerAddress(server, limits.maxConnectionsPerAddress);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(socket, err, ids, logger));
  return server;
};
