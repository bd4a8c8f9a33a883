import { setTimeout as sleep } from 'node:timers/promises';
import * as E from 'fp-ts/Either';
import type { SyncFailure } from '../../domain/ad-spend';

export interface PlatformClientSettings {
  /** AD_PLATFORM_TIMEOUT_MS: how long one request may take, its body included. */
  readonly timeoutMs: number;
  /** The longest wait a sync sits through when the platform asks for one; past it, the sync ends and the account is tried again after the wait. */
  readonly maxWaitMs: number;
  /** How many times one request is tried. */
  readonly attempts: number;
  /** The first pause after a failure without a wait of the platform's, doubled after each (with jitter). */
  readonly backoffMs: number;
}

export const DEFAULT_CLIENT_SETTINGS: Omit<PlatformClientSettings, 'timeoutMs'> = { maxWaitMs: 60_000, attempts: 4, backoffMs: 2_000 };

/** The largest answer read: a month of daily spend for thousands of ads fits many times over. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface PlatformResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
  /** The body as text. */
  readonly text: string;
}

/** An answer that is not what was asked for. */
export type NotOk =
  /** Worth trying again: an outage, or a rate limit (with the wait the platform asked for, when it said one). */
  { readonly retry: string; readonly waitMs?: number } | { readonly fail: SyncFailure };

/** What an adapter makes of one answer of its platform. */
export type Verdict<A> = { readonly ok: A } | NotOk;

export interface PlatformRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * The seconds of `Retry-After` (RFC 9110: a number of seconds or an HTTP date) in milliseconds, or
 * undefined when the header is absent or unreadable.
 */
export const retryAfterMs = (headers: Headers, now: number = Date.now()): number | undefined => {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/**
 * Sends one request to a platform until `judge` accepts the answer, tries it again after the wait
 * the platform asked for (else after a backoff), or gives up: a refusal at once, an outage after
 * `attempts` tries, a wait longer than `maxWaitMs` at once (with that wait, for the next sync). Only
 * `signal` aborting rejects. Nothing of the request (its URL holds tokens) reaches a message.
 */
export const callPlatform = async <A>(
  platform: string,
  request: PlatformRequest,
  judge: (response: PlatformResponse) => Verdict<A>,
  settings: PlatformClientSettings,
  signal: AbortSignal,
): Promise<E.Either<SyncFailure, A>> => {
  let last = '';
  for (let attempt = 0; attempt < settings.attempts; attempt++) {
    let verdict: Verdict<A>;
    let askedMs: number | undefined;
    try {
      const response = await send(request, settings.timeoutMs, signal);
      verdict = judge(response);
      askedMs = retryAfterMs(response.headers);
    } catch (err) {
      if (signal.aborted) throw err;
      verdict = { retry: `${platform} could not be reached (${reasonOf(err)})` };
    }
    if ('ok' in verdict) return E.right(verdict.ok);
    if ('fail' in verdict) return E.left(verdict.fail);
    last = verdict.retry;
    const waitMs = verdict.waitMs ?? askedMs;
    if (waitMs !== undefined && waitMs > settings.maxWaitMs) {
      return E.left({
        kind: 'unavailable',
        message: `${verdict.retry}; ${platform} asked to wait ${Math.ceil(waitMs / 1000)} s`,
        retryAfterMs: waitMs,
      });
    }
    if (attempt + 1 < settings.attempts) {
      await sleep(waitMs ?? settings.backoffMs * 2 ** attempt * (0.5 + Math.random() / 2), undefined, { signal });
    }
  }
  return E.left({ kind: 'unavailable', message: `${last} (tried ${settings.attempts} times)` });
};

/** Why a request got no answer, in a few words that hold nothing of the request. */
export const reasonOf = (err: unknown): string => {
  if (err instanceof Error && err.name === 'TimeoutError') return 'no answer in time';
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  return code ?? 'the connection failed';
};

/** One request, its answer read whole (within MAX_BODY_BYTES) and parsed when it is JSON. */
export const send = async (request: PlatformRequest, timeoutMs: number, signal: AbortSignal): Promise<PlatformResponse> => {
  const response = await fetch(request.url, {
    method: request.method ?? 'GET',
    headers: { accept: 'application/json', ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: 'error',
    signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
  });
  const text = await boundedText(response);
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
};

const boundedText = async (response: Response): Promise<string> => {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) throw new Error(`answer larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** `value` as an array of unknowns, or an empty one. */
export const items = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/** The object at `value[key]`, when there is one. */
export const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;

export const textField = (value: unknown, key: string): string | undefined => {
  const found = field(value, key);
  return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
};

/** An answer that is not what the documentation shows: the platform changed, or something in between did. */
export const unreadable = (platform: string, what: string): NotOk => ({
  fail: { kind: 'unavailable', message: `${platform} answered ${what} in a form the service cannot read` },
});

/** An error answer without the platform's error body: a 5xx or 429 is tried again, anything else is unreadable. */
export const unexplained = (platform: string, response: PlatformResponse): NotOk =>
  response.status >= 500 || response.status === 429
    ? { retry: `${platform} answered ${response.status}` }
    : unreadable(platform, `${response.status}`);
