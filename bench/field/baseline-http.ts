import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { created, loadFixtures, port } from './baseline-fixtures';

/**
 * The floor: node:http alone, answering the field benchmark's routes with the service's bytes
 * (see baseline-fixtures.ts). A POST's or PATCH's JSON body is read and parsed; nothing is checked,
 * stored or logged.
 */

const fixtures = loadFixtures();
const JSON_TYPE = 'application/json; charset=utf-8';
let sequence = 0;

const send = (
  res: ServerResponse,
  status: number,
  type: string | undefined,
  body: Buffer | string,
  headers: Record<string, string> = {},
): void => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { ...(type === undefined ? {} : { 'Content-Type': type }), 'Content-Length': String(bytes.length), ...headers });
  res.end(bytes);
};

const readJson = (req: IncomingMessage, then: (body: unknown) => void, res: ServerResponse): void => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      send(res, 400, JSON_TYPE, '{"error":"malformed JSON"}');
      return;
    }
    then(body);
  });
};

const ORDERS = '/api/v1/orders';

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path === ORDERS) {
    if (req.method === 'POST') {
      readJson(
        req,
        (body) => {
          const answer = created(++sequence, body);
          send(res, 201, JSON_TYPE, answer.json, { Location: answer.location });
        },
        res,
      );
      return;
    }
    if (req.method === 'GET') return send(res, 200, JSON_TYPE, fixtures.page);
  } else if (path.startsWith(`${ORDERS}/`)) {
    if (req.method === 'GET') return send(res, 200, JSON_TYPE, fixtures.order);
    if (req.method === 'PATCH') return readJson(req, () => send(res, 200, JSON_TYPE, fixtures.order), res);
  } else if (path.startsWith('/l/') && req.method === 'GET') {
    return send(res, 302, undefined, '', { Location: fixtures.redirectTo });
  } else if (path === '/tracker.js' && req.method === 'GET') {
    return send(res, 200, 'application/javascript; charset=utf-8', fixtures.tracker);
  } else if (path === '/healthz') {
    return send(res, 200, JSON_TYPE, '{"status":"ok"}');
  }
  send(res, 404, JSON_TYPE, '{"error":"not found"}');
});

server.listen(port(), '127.0.0.1');
const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
