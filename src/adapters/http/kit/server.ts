import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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

/** How much of the rest of a body is read and dropped after an answer that closes its connection: the heavy-body threshold. */
export const DROPPED_BODY_BYTES = 64 * 1024;
/** How long a connection stays open after such an answer, at the most: time for the client to read it. */
export const LINGER_MS = 1_000;

/**
 * Reads and drops at most `limit` bytes of what is left of `request`'s body, then stops reading it:
 * the socket's buffers fill and the client's sending stalls. Listening for the body's data also keeps
 * Node from reading and dropping all of it (which it does with a body nobody read).
 */
const dropAtMost = (request: IncomingMessage, limit: number): void => {
  let dropped = 0;
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped >= limit) request.pause();
  });
};

/**
 * Closes a connection in stages when its answer went out before its request's body arrived (a
 * refusal that reads no body: 429 TOO_MANY_HEAVY_REQUESTS, say). Node would close the socket at once;
 * the client's next write of its body would then meet a reset, and a client that had not read the
 * answer yet would lose it (EPIPE instead of the 429). As RFC 9112 (section 9.6) advises, the write
 * side closes first and the socket closes once the body is in or the client closes its side. But
 * reading a refused body to its end costs what the refusal saved (a client sending 4 MiB bodies
 * refused one after another kept the service reading 300 MB a second), so at most DROPPED_BODY_BYTES
 * of it are read, and the socket closes LINGER_MS after the answer at the latest: a client still
 * sending then meets a reset, with the answer already in its buffer.
 */
const closeInStages = (socket: Socket, requestOf: (socket: Socket) => IncomingMessage | undefined): void => {
  const closeNow = socket.destroySoon.bind(socket);
  // Node's server calls destroySoon once the answer of a connection it closes is written.
  socket.destroySoon = () => {
    const request = requestOf(socket);
    if (request === undefined || request.complete) {
      closeNow();
      return;
    }
    socket.end();
    const close = (): void => {
      socket.destroy();
    };
    const lingering = setTimeout(close, LINGER_MS);
    // Unref'd: a lingering connection never keeps a stopping process alive.
    lingering.unref();
    socket.once('close', () => clearTimeout(lingering));
    request.once('end', close);
    socket.once('end', close);
  };
};

/** An HTTP server for `app` with the limits set and Node's own refusals answered as problems. */
export const createHttpServer = (app: { callback(): RequestListener }, limits: ServerLimits, ids: IdGenerator, logger: Logger): Server => {
  const handle = app.callback();
  const requests = new WeakMap<Socket, IncomingMessage>();
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often Node looks for requests past their timeouts: often enough that a timeout means it.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      // A request sent behind one whose answer closed the connection: never served (RFC 9112, 9.6).
      if (!req.socket.writable) {
        req.socket.destroy();
        return;
      }
      requests.set(req.socket, req);
      // An answer that closes the connection before the body is in: the rest is dropped within bounds.
      res.once('prefinish', () => {
        if (!req.complete && res.getHeader('connection') === 'close') dropAtMost(req, DROPPED_BODY_BYTES);
      });
      void handle(req, res);
    },
  );
  server.on('connection', (socket: Socket) => closeInStages(socket, (s) => requests.get(s)));
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  capPerAddress(server, limits.maxConnectionsPerAddress);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerClientError(socket, err, ids, logger));
  return server;
};

/** Where a service takes its requests: an HTTP server of its own, or its turn on one that outlives it. */
export interface Serving {
  readonly server: Server;
  /** `http://host:port`, with the port actually bound. */
  readonly url: string;
  /** Stops taking requests; resolves once those in flight are answered. */
  close(): Promise<void>;
  /** Ends the requests still in flight, when the shutdown timeout has passed. */
  cutOff(): void;
}

/**
 * An HTTP server that outlives the services attached to it one after another: from `attach` until its
 * `close`, `app` takes every request. Tests start hundreds of services; one port and its
 * keep-alive connections serve them all.
 */
export interface SharedHttpServer {
  attach(app: { callback(): RequestListener }): Serving;
}

/** `server` listening on `host:port` (0: a free one); closing it stops accepting connections and ends the idle ones. */
export const listen = async (server: Server, host: string, port: number): Promise<Serving> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${address.includes(':') ? `[${address}]` : address}:${bound}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
    },
    cutOff: () => server.closeAllConnections(),
  };
};
