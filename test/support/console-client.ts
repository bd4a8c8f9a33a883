import { request } from 'node:http';

export interface ConsoleResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The `Set-Cookie` lines of the answer. */
  readonly setCookies: readonly string[];
}

/**
 * A browser's part in front of the console, over node:http so that a test may send any header
 * (`Host` included, which fetch will not forge): it keeps the cookies it is given, sends them back
 * whatever their attributes, and reads the CSRF token of the last page.
 */
export class ConsoleClient {
  private readonly cookies = new Map<string, string>();
  private csrf = '';

  /** `origin` goes in the `Origin` of every POST; `headers` in every request (a proxy's, say). */
  constructor(
    private readonly base: string,
    private readonly origin: string = base,
    private readonly headers: Record<string, string> = {},
  ) {}

  get(path: string, headers: Record<string, string> = {}): Promise<ConsoleResponse> {
    return this.send('GET', path, undefined, headers);
  }

  /** A form, with the CSRF token of the last page read unless the fields carry their own. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<ConsoleResponse> {
    const body = new URLSearchParams({ csrf: this.csrf, ...fields }).toString();
    return this.send('POST', path, body, { origin: this.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers });
  }

  /** Signs in; the answer is the form's (303 to the console when it worked). */
  signIn(email: string, password: string, headers: Record<string, string> = {}, next?: string): Promise<ConsoleResponse> {
    return this.post('/console/sign-in', { email, password, ...(next === undefined ? {} : { next }) }, headers);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<ConsoleResponse> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const url = new URL(path, this.base);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          headers: {
            ...this.headers,
            ...(cookie === '' ? {} : { cookie }),
            ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const setCookies = res.headers['set-cookie'] ?? [];
            for (const line of setCookies) {
              const [pair] = line.split(';');
              const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
              if (value === '') this.cookies.delete(name);
              else this.cookies.set(name, value);
            }
            const csrf = /name="csrf" value="([^"]+)"/.exec(text);
            if (csrf !== null) this.csrf = csrf[1];
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, setCookies });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}
