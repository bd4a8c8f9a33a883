import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type * as t from 'io-ts';
import { describeErrors, type ValidationDetail } from './codec-kit';
import { DEFAULT_BODY_VALUES, type BodyValues } from './well-formed';
import { insufficientScope } from '../../../application/shared/errors';
import { grants, type Scope } from '../../../domain/scope';
import { ProblemError, validationFailed } from './http-errors';
import type { RequestState } from './request-state';
import type { Guard, Route, RouteDeps } from './route';

/**
 * The middleware behind each guard, the reader of the routes that take their body as bytes, the turn
 * a dashboard's heavy body waits for before it is read (the token's dashboard; on a route without a
 * token that takes bytes, a source's delivery, the source's), and the body readers of the routes that take
 * a JSON body (given each route's count of values).
 */
export type GuardMiddleware = Readonly<
  Record<Guard | 'rawBody' | 'heavyTurn' | 'deliveryTurn' | 'share' | 'deliveryShare', Middleware<RequestState>>
> &
  Readonly<Record<'body' | 'largeBody', (values: BodyValues) => Middleware<RequestState>>>;

/** Where each step runs, whatever order a route lists its guards in (see `Guard`). */
const ORDER: readonly (Guard | 'body')[] = ['admin', 'token', 'rateLimit', 'body', 'idempotency'];

/** `/api/v1/orders/{externalId}` → `/api/v1/orders/:externalId`, the router's form. */
export const routerPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

/**
 * Path parameters read from the raw path, segment by segment, and decoded strictly: the router falls
 * back to the raw text when a segment is not percent-encoded UTF-8 (`%ED%A0%80` is a lone surrogate),
 * which would name another resource; here it is a validation problem.
 */
const rawParams = (positions: readonly ParamPosition[], ctx: Context, details: ValidationDetail[]): Record<string, string> => {
  const segments = ctx.path.split('/');
  const params: Record<string, string> = {};
  for (const { index, name } of positions) {
    try {
      params[name] = decodeURIComponent(segments[index] ?? '');
    } catch {
      details.push({ path: `path.${name}`, message: 'must be percent-encoded UTF-8' });
    }
  }
  return params;
};

interface ParamPosition {
  readonly index: number;
  readonly name: string;
}

/** Where the route's path parameters stand among its segments, found once per route. */
const paramPositions = (route: Route): readonly ParamPosition[] =>
  route.path.split('/').flatMap((part, index) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    return name === undefined ? [] : [{ index, name }];
  });

const decodeInto = (codec: t.Mixed, input: unknown, prefix: string, details: ValidationDetail[]): unknown => {
  const result = codec.decode(input);
  if (result._tag === 'Right') return result.right;
  details.push(...describeErrors(result.left, prefix));
  return undefined;
};

/** Decodes every input of the request, reports every problem at once, then runs the handler. */
const handler = (route: Route, deps: RouteDeps): Middleware<RequestState> => {
  const positions = paramPositions(route);
  return async (ctx) => {
    const details: ValidationDetail[] = [];
    const params = route.params === undefined ? undefined : rawParams(positions, ctx, details);
    const decodedParams = params === undefined || details.length > 0 ? undefined : decodeInto(route.params!, params, 'path', details);
    const query = route.query === undefined ? undefined : decodeInto(route.query, ctx.query, 'query', details);
    let body: unknown;
    if (route.body !== undefined) {
      const raw: unknown = ctx.request.body;
      const shape = ctx.state.bodyShape ?? { details: [], stopped: false };
      const flagged = new Set(shape.details.map((detail) => detail.path));
      const codecDetails: ValidationDetail[] = [];
      if (!shape.stopped) body = decodeInto(route.body, raw, '', codecDetails);
      details.push(...shape.details, ...codecDetails.filter((detail) => !flagged.has(detail.path)));
    }
    if (details.length > 0) throw validationFailed(details);
    const headers = Object.fromEntries(
      (route.requestHeaders ?? []).flatMap((name) => (ctx.get(name) === '' ? [] : [[name, ctx.get(name)]])),
    );
    const result = await route.handle(
      {
        params: decodedParams as never,
        query: query as never,
        body: body as never,
        headers,
        principal: ctx.state.principal as never,
        reservedId: ctx.state.reservedId,
        requestId: ctx.state.requestId,
        queryString: ctx.querystring,
        isHead: ctx.method === 'HEAD',
        raw:
          route.rawBody === true
            ? {
                body: ctx.state.rawBody ?? new Uint8Array(),
                headers: Object.fromEntries(
                  Object.entries(ctx.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]),
                ),
              }
            : undefined,
      },
      deps,
    );
    if (result._tag === 'Left') throw new ProblemError(result.left);
    const reply = result.right;
    const spec = route.responses[reply.status];
    ctx.status = reply.status;
    for (const [name, value] of Object.entries({ ...spec?.fixedHeaders, ...reply.headers })) ctx.set(name, value);
    if (reply.body !== undefined) {
      ctx.body = reply.body;
      if (spec?.mediaType !== undefined) ctx.type = spec.mediaType;
    } else {
      // No body (a 204, a 304, a redirect): left unset, Koa would write the status text as one, as text/plain.
      ctx.body = null;
      ctx.status = reply.status;
    }
  };
};

const PARAMETER = /^\{.+\}$/;
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The literal segments that other routes have where `route` has a parameter, the rest of their paths
 * equal: `build` for `/api/v1/links/{id}`, beside `/api/v1/links/build`. Left to itself the router
 * matches the parameter to them too: it would answer a GET of `/api/v1/links/build` as the read of a
 * link named `build`, and list GET and DELETE in its `Allow`. The document says what OpenAPI says,
 * that the literal path wins (and has only its own methods).
 */
const literalSiblings = (route: Route, routes: readonly Route[]): Map<number, string[]> => {
  const own = route.path.split('/');
  const reserved = new Map<number, string[]>();
  for (const other of routes) {
    const theirs = other.path.split('/');
    if (other === route || theirs.length !== own.length) continue;
    const differing = own.flatMap((part, index) => (part === theirs[index] ? [] : [index]));
    const index = differing[0];
    if (differing.length === 1 && index !== undefined && PARAMETER.test(own[index]) && !PARAMETER.test(theirs[index])) {
      reserved.set(index, [...(reserved.get(index) ?? []), theirs[index]]);
    }
  }
  return reserved;
};

/** The router's own pattern for `route` (parameters a whole segment, an optional trailing `/`, any case), its parameters barred from `reserved`. */
const patternExcluding = (route: Route, reserved: Map<number, string[]>): RegExp => {
  const segments = route.path.split('/').map((part, index) => {
    if (!PARAMETER.test(part)) return escapeRegExp(part);
    const taken = reserved.get(index) ?? [];
    return `${taken.length === 0 ? '' : `(?!(?:${taken.map(escapeRegExp).join('|')})(?:/|$))`}([^/]+)`;
  });
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
};

/** Refuses a token without `needed` (decision 0017): 403 INSUFFICIENT_SCOPE, after the rate limit counted it. */
const requireScope =
  (needed: Scope): Middleware<RequestState> =>
  async (ctx, next) => {
    if (!grants(ctx.state.principal?.scopes ?? [], needed)) throw new ProblemError(insufficientScope(needed));
    await next();
  };

/** Registers each route with its guards in their fixed order (its scope after the rate limit), then its handler. */
export const registerRoutes = (router: Router<RequestState>, routes: readonly Route[], guards: GuardMiddleware, deps: RouteDeps): void => {
  for (const route of routes) {
    if (route.guards.includes('token') && route.scope === undefined)
      throw new Error(`${route.operationId} takes a token and declares no scope`);
    // A dashboard's heavy bodies take turns (decision 0023); the admin's and the console's forms are counted elsewhere or not at all.
    const turn = route.guards.includes('token') ? [guards.heavyTurn] : route.rawBody === true ? [guards.deliveryTurn] : [];
    const steps = ORDER.flatMap((step): Middleware<RequestState>[] => {
      // A source's delivery has no token: its dashboard's share is taken here, before its body.
      if (step === 'body' && route.rawBody === true) return [guards.deliveryShare, ...turn, guards.rawBody];
      if (step === 'body') {
        if (route.body === undefined) return [];
        const values = route.bodyValues ?? { values: DEFAULT_BODY_VALUES };
        return [...turn, route.largeBody === true ? guards.largeBody(values) : guards.body(values)];
      }
      if (!route.guards.includes(step)) return [];
      const scope = step === 'rateLimit' || (step === 'token' && !route.guards.includes('rateLimit')) ? route.scope : undefined;
      // The dashboard's share of the requests in progress, as soon as the token says whose it is.
      const share = step === 'token' ? [guards.share] : [];
      return scope === undefined || scope === 'any' ? [guards[step], ...share] : [guards[step], ...share, requireScope(scope)];
    });
    const layer = router.register(routerPath(route.path), [route.method.toUpperCase()], [...steps, handler(route, deps)], {
      name: route.operationId,
    });
    const reserved = literalSiblings(route, routes);
    if (reserved.size > 0 && 'regexp' in layer) layer.regexp = patternExcluding(route, reserved);
  }
};
