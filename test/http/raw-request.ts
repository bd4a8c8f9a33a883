import { request, type IncomingHttpHeaders } from 'node:http';
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
