import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { ApiResponse } from '../support/test-api';

export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Written in these chunks; without Content-Length in `headers` Node sends them chunked. */
  readonly chunks?: readonly (string | Buffer)[];
}

/**
 * A request through node:http, for what fetch will not send: a body without Content-Type, or a body
 * in chunks without Content-Length.
 */
export const rawRequest = (baseUrl: string, options: RawRequest): Promise<ApiResponse> =>
  new Promise((resolve, reject) => {
    const req = request(new URL(options.path, baseUrl), { method: options.method, headers: options.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: toHeaders(res.headers), text, body });
      });
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });

const toHeaders = (incoming: IncomingHttpHeaders): Headers => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
};

/** Writes `text` on a raw connection and resolves everything the server sent until it closed. */
export const rawExchange = (url: string, writes: readonly (string | { wait: number })[]): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => {
      void (async () => {
        for (const write of writes) {
          if (typeof write === 'string') socket.write(write);
          else await new Promise((done) => setTimeout(done, write.wait));
        }
      })();
    });
  });

/** A raw HTTP answer, parsed: status, headers (lowercase names) and the JSON body. */
export const parseRaw = (text: string): ApiResponse => {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Headers();
  for (const line of headerLines) {
    const at = line.indexOf(':');
    headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const body = rest.join('\r\n\r\n');
  return { status: Number(statusLine.split(' ')[1]), headers, text: body, body: body === '' ? undefined : JSON.parse(body) };
};
