import type * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { Principal } from '../../../application/authenticate-token';
import type { UseCases } from '../../../application/use-cases';
import type { HttpError } from '../http-errors';
import type { ReadinessReport } from './ops-routes';

/**
 * One declaration per endpoint: everything else (router registration, decoding, the handler's types,
 * the OpenAPI document, the problems it can answer) is derived from it.
 */

export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * What runs before a handler, always in this order whatever order a route lists them in: the admin
 * secret or the bearer token, the token's rate limit, then (on routes with a body) the body, then the
 * Idempotency-Key.
 */
export type Guard = 'admin' | 'token' | 'rateLimit' | 'idempotency';

export type ProblemTag = HttpError['_tag'];

/** Response headers a handler may set, each documented once (openapi/document.ts). */
export type ResponseHeader = 'Location' | 'Cache-Control';

export interface ResponseSpec {
  readonly description: string;
  /** The body's codec; none for a response without a body (204). */
  readonly body?: t.Mixed;
  readonly headers?: readonly ResponseHeader[];
}

type BodyOf<S extends ResponseSpec> = S['body'] extends t.Mixed ? t.TypeOf<S['body']> : undefined;
type HeadersOf<S extends ResponseSpec> = S['headers'] extends readonly ResponseHeader[]
  ? { readonly headers: Readonly<Record<S['headers'][number], string>> }
  : { readonly headers?: undefined };

/** What a handler answers: one of its declared statuses, with the body and headers declared for it. */
export type Reply<R extends Readonly<Record<number, ResponseSpec>>> = {
  [S in keyof R & number]: { readonly status: S; readonly body: BodyOf<R[S]> } & HeadersOf<R[S]>;
}[keyof R & number];

/** What handlers reach besides their input. */
export interface RouteDeps {
  readonly useCases: UseCases;
  readonly readiness: () => Promise<ReadinessReport>;
  readonly openApiDocument: () => object;
}

/** A strict object of parameters, described member by member in the document. */
export interface ParametersCodec extends t.Mixed {
  readonly required: Readonly<Record<string, t.Mixed>>;
  readonly optional: Readonly<Record<string, t.Mixed>>;
}
type AnyStrict = ParametersCodec;
type DecodedOr<C, Otherwise> = C extends t.Mixed ? t.TypeOf<C> : Otherwise;

export interface HandlerInput<P, Q, B, G extends Guard> {
  readonly params: DecodedOr<P, undefined>;
  readonly query: DecodedOr<Q, undefined>;
  readonly body: DecodedOr<B, undefined>;
  /** The token's dashboard, on routes guarded by a token. */
  readonly principal: 'token' extends G ? Principal : undefined;
  /** Under an Idempotency-Key: the id a resource created by this request must take. */
  readonly reservedId: string | undefined;
}

export interface RouteSpec<
  P extends AnyStrict | undefined,
  Q extends AnyStrict | undefined,
  B extends t.Mixed | undefined,
  G extends Guard,
  R extends Readonly<Record<number, ResponseSpec>>,
  X extends ProblemTag,
> {
  readonly method: Method;
  /** In the OpenAPI form: `/api/v1/orders/{externalId}`; each parameter is a whole path segment. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'orders' | 'webhooks' | 'admin' | 'operations';
  readonly guards: readonly G[];
  /** False for the routes that never touch storage, so cannot answer 500 or 503 on its account. */
  readonly storage?: boolean;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  readonly bodyExamples?: Readonly<Record<string, unknown>>;
  readonly responses: R;
  /** The errors of the handler itself; the guards, the codecs and storage add theirs. */
  readonly problems: readonly X[];
  readonly handle: (
    input: HandlerInput<P, Q, B, G>,
    deps: RouteDeps,
  ) => Promise<E.Either<Extract<HttpError, { readonly _tag: X | 'ValidationFailed' }>, Reply<R>>>;
}

/** A route with its types forgotten, as the router and the document generator see it. */
export type Route = Omit<RouteSpec<AnyStrict, AnyStrict, t.Mixed, Guard, Readonly<Record<number, ResponseSpec>>, ProblemTag>, 'handle'> & {
  readonly handle: (
    input: HandlerInput<AnyStrict, AnyStrict, t.Mixed, Guard>,
    deps: RouteDeps,
  ) => Promise<E.Either<HttpError, { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }>>;
};

export const route = <
  const G extends Guard,
  const X extends ProblemTag,
  R extends Readonly<Record<number, ResponseSpec>>,
  P extends AnyStrict | undefined = undefined,
  Q extends AnyStrict | undefined = undefined,
  B extends t.Mixed | undefined = undefined,
>(
  spec: RouteSpec<P, Q, B, G, R, X>,
): Route => spec as unknown as Route;
