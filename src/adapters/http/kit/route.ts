import type * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { Principal } from '../../../application/access/authenticate-token';
import type { UseCases } from '../../../application/use-cases';
import type { Scope } from '../../../domain/scope';
import type { HttpError, ReadinessReport } from './http-errors';
import type { StaticAsset } from './static-asset';
import type { BodyValues } from './well-formed';

/**
 * One declaration per endpoint: everything else (router registration, decoding, the handler's types,
 * the OpenAPI document, the problems it can answer) is derived from it.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * What runs before a handler, always in this order whatever order a route lists them in: the admin
 * secret or the bearer token, the token's rate limit, then (on routes with a body) the body, then the
 * Idempotency-Key.
 */
export type Guard = 'admin' | 'token' | 'rateLimit' | 'idempotency';

export type ProblemTag = HttpError['_tag'];

/** Response headers a handler may set, each documented once (openapi/texts.ts). */
export type ResponseHeader = 'Location' | 'ETag' | 'Content-Encoding';

/** Response headers whose value a route declares: the router sets it, the document states it. */
export type FixedHeader = 'Cache-Control' | 'Vary';

/**
 * Request headers a route may read, each documented once as a header parameter (openapi/texts.ts).
 * They are read, never refused: a value the route cannot use counts as absent.
 */
export type RequestHeader = 'If-None-Match' | 'Accept-Encoding';

export interface ResponseSpec {
  readonly description: string;
  /** The body's codec; none for a response without a body (204, 304). */
  readonly body?: t.Mixed;
  /**
   * The media type of a body that is not JSON (`text/javascript; charset=utf-8`): the handler hands
   * over the bytes, sent as they are. JSON when absent.
   */
  readonly mediaType?: string;
  /** Headers the handler sets on every such response. */
  readonly headers?: readonly ResponseHeader[];
  /** Headers the handler sets on some such responses only (`Content-Encoding` when the body is compressed). */
  readonly optionalHeaders?: readonly ResponseHeader[];
  /** Headers with the same value on every such response, set by the router. */
  readonly fixedHeaders?: Readonly<Partial<Record<FixedHeader, string>>>;
}

type BodyOf<S extends ResponseSpec> = S['body'] extends t.Mixed ? t.TypeOf<S['body']> : undefined;
type Named<L> = L extends readonly ResponseHeader[] ? L[number] : never;
type HeadersOf<S extends ResponseSpec> = [Named<S['headers']> | Named<S['optionalHeaders']>] extends [never]
  ? { readonly headers?: undefined }
  : {
      readonly headers: Readonly<Record<Named<S['headers']>, string>> & Readonly<Partial<Record<Named<S['optionalHeaders']>, string>>>;
    };

/** What a handler answers: one of its declared statuses, with the body and headers declared for it. */
export type Reply<R extends Readonly<Record<number, ResponseSpec>>> = {
  [S in keyof R & number]: { readonly status: S; readonly body: BodyOf<R[S]> } & HeadersOf<R[S]>;
}[keyof R & number];

/** What handlers reach besides their input. */
export interface RouteDeps {
  readonly useCases: UseCases;
  readonly readiness: () => Promise<ReadinessReport>;
  readonly openApiDocument: () => object;
  /** The browser tracking script, prepared once at start. */
  readonly trackerScript: StaticAsset;
  /** Where short links live: PUBLIC_BASE_URL, else the address the service listens on; no trailing `/`. */
  readonly publicBaseUrl: () => string;
}

/** A strict object of parameters, described member by member in the document. */
export interface ParametersCodec extends t.Mixed {
  readonly required: Readonly<Record<string, t.Mixed>>;
  readonly optional: Readonly<Record<string, t.Mixed>>;
}
type AnyStrict = ParametersCodec;
type DecodedOr<C, Otherwise> = C extends t.Mixed ? t.TypeOf<C> : Otherwise;

export interface HandlerInput<P, Q, B, G extends Guard, H extends RequestHeader = never> {
  readonly params: DecodedOr<P, undefined>;
  readonly query: DecodedOr<Q, undefined>;
  readonly body: DecodedOr<B, undefined>;
  /** The request headers the route declares, as sent; absent when not sent. */
  readonly headers: Readonly<Partial<Record<H, string>>>;
  /** The token's dashboard, on routes guarded by a token. */
  readonly principal: 'token' extends G ? Principal : undefined;
  /** Under an Idempotency-Key: the id a resource created by this request must take. */
  readonly reservedId: string | undefined;
  /** The request's id (`X-Request-Id`), for problems a handler writes into its own answer. */
  readonly requestId: string;
  /** The query string as sent, after `?` (`''` without one): what a redirect passes on, undecoded. */
  readonly queryString: string;
  /**
   * True for a `HEAD`: the router answers one wherever a route has `get`, with the GET's handler and
   * status and headers, the body dropped. A handler whose GET changes something (a click) reads it.
   */
  readonly isHead: boolean;
  /**
   * On a `rawBody` route: the body's bytes as sent, and every request header by lower-case name (a
   * repeated one joined with `, `), for a check of a signature the route cannot declare in advance.
   */
  readonly raw: { readonly body: Uint8Array; readonly headers: Readonly<Record<string, string | undefined>> } | undefined;
}

export interface RouteSpec<
  P extends AnyStrict | undefined,
  Q extends AnyStrict | undefined,
  B extends t.Mixed | undefined,
  G extends Guard,
  R extends Readonly<Record<number, ResponseSpec>>,
  X extends ProblemTag,
  H extends RequestHeader = never,
> {
  readonly method: Method;
  /** In the OpenAPI form: `/api/v1/orders/{externalId}`; each parameter is a whole path segment. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag:
    'orders' | 'reports' | 'spend' | 'dashboard' | 'webhooks' | 'links' | 'sources' | 'ad-accounts' | 'admin' | 'operations' | 'tracking';
  readonly guards: readonly G[];
  /**
   * The scope a token needs (decision 0017), checked after the rate limit; `any` for what every valid
   * token may do. Required on the routes guarded by `token`, and on no other.
   */
  readonly scope?: Scope | 'any';
  /** The body may be up to the larger limit of batches (BATCH_BODY_LIMIT_BYTES) instead of BODY_LIMIT_BYTES. */
  readonly largeBody?: boolean;
  /** How many JSON values the body may hold: its largest legal form's count (DEFAULT_BODY_VALUES when absent). */
  readonly bodyValues?: BodyValues;
  /**
   * The body is read as bytes (up to BODY_LIMIT_BYTES, whatever its media type) and handed over in
   * `raw`, never parsed: for platforms' webhooks, whose signature covers the exact bytes. Not with `body`.
   */
  readonly rawBody?: boolean;
  /** False for the routes that never touch storage, so cannot answer 500 or 503 on its account. */
  readonly storage?: boolean;
  readonly params?: P;
  readonly query?: Q;
  /** The request headers the handler reads. */
  readonly requestHeaders?: readonly H[];
  readonly body?: B;
  readonly bodyExamples?: Readonly<Record<string, unknown>>;
  readonly responses: R;
  /** The errors of the handler itself; the guards, the codecs and storage add theirs. */
  readonly problems: readonly X[];
  readonly handle: (
    input: HandlerInput<P, Q, B, G, H>,
    deps: RouteDeps,
  ) => Promise<E.Either<Extract<HttpError, { readonly _tag: X | 'ValidationFailed' }>, Reply<R>>>;
}

/** A route with its types forgotten, as the router and the document generator see it. */
export type Route = Omit<
  RouteSpec<AnyStrict, AnyStrict, t.Mixed, Guard, Readonly<Record<number, ResponseSpec>>, ProblemTag, RequestHeader>,
  'handle'
> & {
  readonly handle: (
    input: HandlerInput<AnyStrict, AnyStrict, t.Mixed, Guard, RequestHeader>,
    deps: RouteDeps,
  ) => Promise<
    E.Either<HttpError, { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }>
  >;
};

export const route = <
  const G extends Guard,
  const X extends ProblemTag,
  R extends Readonly<Record<number, ResponseSpec>>,
  P extends AnyStrict | undefined = undefined,
  Q extends AnyStrict | undefined = undefined,
  B extends t.Mixed | undefined = undefined,
  const H extends RequestHeader = never,
>(
  spec: RouteSpec<P, Q, B, G, R, X, H> & ('token' extends G ? { readonly scope: Scope | 'any' } : { readonly scope?: undefined }),
): Route => spec as unknown as Route;
