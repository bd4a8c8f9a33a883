import type { AppError } from '../../../application/shared/errors';
import type { ValidationDetail } from './codec-kit';

/** The state of each part the service needs to serve (GET /readyz). */
export interface ReadinessComponents {
  /** `read-only`: the store answers reads but cannot keep a write (a full disk). */
  readonly store: 'up' | 'read-only' | 'down';
  readonly workers: Readonly<Record<string, 'running' | 'stopping' | 'stopped'>>;
}

/** What the configuration switched off: the admin API (ADMIN_TOKEN), the console (CONSOLE), /metrics on this port. */
export type RouteOff = 'admin' | 'console' | 'metrics';

/** Failures found at the HTTP edge, before or around a use case. */
export type EdgeError =
  | { readonly _tag: 'ValidationFailed'; readonly details: readonly ValidationDetail[] }
  | { readonly _tag: 'MalformedJson'; readonly reason: string }
  | { readonly _tag: 'PayloadTooLarge'; readonly limitBytes: number }
  | { readonly _tag: 'UnsupportedMediaType'; readonly reason: string }
  | { readonly _tag: 'MethodNotAllowed'; readonly allowed: readonly string[] }
  | { readonly _tag: 'RouteNotFound'; readonly off?: RouteOff }
  /** No usable `Authorization: Bearer <token>`: nothing sent, another scheme, or not one token after `Bearer`. */
  | { readonly _tag: 'BearerMissing'; readonly sent: 'nothing' | 'another-scheme' | 'no-single-token' }
  /** The dashboard already has as many heavy requests in progress and waiting as it may (decision 0023). */
  | { readonly _tag: 'TooManyHeavyRequests'; readonly perDashboard: number; readonly queue: number; readonly retryAfterSeconds: number }
  | { readonly _tag: 'ServiceUnavailable' }
  | { readonly _tag: 'NotReady'; readonly draining: boolean; readonly components: ReadinessComponents }
  | { readonly _tag: 'InternalError' }
  | { readonly _tag: 'MalformedRequest' }
  | { readonly _tag: 'RequestTimeout' }
  | { readonly _tag: 'HeadersTooLarge' };

export type HttpError = AppError | EdgeError;

/** Thrown by middleware to stop a request with an expected error; the error handler renders it. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';

  constructor(readonly error: HttpError) {
    super(error._tag);
  }
}

export const validationFailed = (details: readonly ValidationDetail[]): ProblemError =>
  new ProblemError({ _tag: 'ValidationFailed', details });

/** What the service says of its parts; bootstrap knows them. */
export interface ReadinessReport {
  /** True from SIGTERM on: a load balancer should send no more requests. */
  readonly draining: boolean;
  readonly components: ReadinessComponents;
}
