import { ERROR_TABLE } from '../error-table';
import { SchemaRegistry } from '../json-schema';
import { PROBLEM_SCHEMAS } from '../problem';
import type { FixedHeader, ParametersCodec, ProblemTag, ResponseSpec, Route } from '../route';
import {
  API_DESCRIPTION,
  API_VERSION,
  FIXED_HEADERS,
  HEADERS,
  IDEMPOTENCY_KEY_PARAMETER,
  REQUEST_HEADER_PARAMETERS,
  REQUEST_ID_PARAMETER,
  SECURITY_SCHEMES,
  TAGS,
} from './texts';
import type {
  Content,
  HeaderObject,
  JsonSchema,
  JsonValue,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  Reference,
  ResponseObject,
  WebhookSection,
} from './types';

/**
 * The OpenAPI 3.1 document of the whole public interface (decision 0011), derived from the route
 * table: paths and methods, parameters and bodies from the codecs, success responses from each
 * route's declaration, problem responses from the error table, each route's problems and its guards.
 */

const ref = (kind: 'headers' | 'parameters' | 'responses' | 'schemas', name: string): Reference => ({
  $ref: `#/components/${kind}/${name}`,
});
const unique = <A>(values: readonly A[]): A[] => [...new Set(values)];

/** One error a route can answer, where it comes from, and whether an Idempotency-Key stores it. */
interface Source {
  readonly tag: ProblemTag;
  readonly note?: string;
  /** A business outcome of the handler: stored and replayed under an Idempotency-Key. */
  readonly business?: boolean;
}

const sourcesOf = (route: Route): Source[] => {
  const has = (guard: Route['guards'][number]): boolean => route.guards.includes(guard);
  const sources: Source[] = [];
  if (has('admin')) {
    sources.push({ tag: 'Unauthorized', note: 'The bearer token is not the admin token.' }, { tag: 'BearerMissing' });
    sources.push({ tag: 'RouteNotFound', note: 'The admin API is disabled: ADMIN_TOKEN is not set.' });
  }
  if (has('token')) sources.push({ tag: 'Unauthorized' }, { tag: 'BearerMissing' }, { tag: 'TokenRevoked' }, { tag: 'TokenExpired' });
  if (route.scope !== undefined && route.scope !== 'any')
    sources.push({ tag: 'InsufficientScope', note: `The token lacks \`${route.scope}\`.` });
  if (has('idempotency'))
    sources.push({ tag: 'ValidationFailed', note: 'The `Idempotency-Key` header (path `header.Idempotency-Key`) is invalid.' });
  if (route.params !== undefined || route.query !== undefined || route.body !== undefined) sources.push({ tag: 'ValidationFailed' });
  if (route.body !== undefined) sources.push({ tag: 'MalformedJson' }, { tag: 'PayloadTooLarge' }, { tag: 'UnsupportedMediaType' });
  if (route.rawBody === true) sources.push({ tag: 'PayloadTooLarge' });
  if (has('idempotency')) sources.push({ tag: 'IdempotencyKeyInProgress' }, { tag: 'IdempotencyKeyReused' });
  if (has('rateLimit')) sources.push({ tag: 'RateLimitExceeded' });
  if ((has('token') && route.body !== undefined) || route.rawBody === true) sources.push({ tag: 'TooManyHeavyRequests' });
  sources.push(...route.problems.map((tag) => ({ tag, business: route.storage !== false })));
  if (route.storage !== false) sources.push({ tag: 'InternalError' }, { tag: 'ServiceUnavailable' });
  return sources;
};

/** The route's description, with the scope its token needs (decision 0017). */
const descriptionOf = (route: Route): string | undefined => {
  if (route.scope === undefined) return route.description;
  const needs = route.scope === 'any' ? 'Any valid token.' : `Scope: \`${route.scope}\`.`;
  return route.description === undefined ? needs : `${route.description}\n\n${needs}`;
};

/** A problem of `tag` as the service writes it, for the response's examples. */
const exampleProblem = (tag: ProblemTag): JsonValue => {
  const row = ERROR_TABLE[tag];
  return {
    type: 'about:blank',
    title: row.title,
    status: row.status,
    detail: typeof row.detail === 'string' ? row.detail : row.description,
    code: row.code,
    requestId: 'req_5tKd3nPq8WmZx2LbYc7HfA',
    ...(tag === 'ValidationFailed' ? { details: [{ path: 'amounts.grossCents', message: 'must be an integer' }] } : {}),
    ...(tag === 'NotReady' ? { components: { store: 'down', workers: { webhooks: 'running' } } } : {}),
  };
};

/**
 * The problems of one status: the one Problem schema (a response's own narrowing of its enums would
 * be an `allOf` that client generators cannot merge), and an example for each code it may carry.
 */
const problemContent = (tags: readonly ProblemTag[]) => {
  const examples = Object.fromEntries(
    unique(tags.map((tag) => ERROR_TABLE[tag].code)).map((code) => {
      const tag = tags.find((t) => ERROR_TABLE[t].code === code)!;
      return [code, { summary: ERROR_TABLE[tag].title, value: exampleProblem(tag) }];
    }),
  );
  return { 'application/problem+json': { schema: ref('schemas', 'Problem'), examples } } as const;
};

const jsonContent = (schema: JsonSchema, examples: Readonly<Record<string, unknown>> = {}): Content => ({
  'application/json': {
    schema,
    ...(Object.keys(examples).length === 0
      ? {}
      : { examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value: value as JsonValue }])) }),
  },
});

/** The component of a header: `Content-Encoding` → `ContentEncoding`. */
const componentName = (header: string): string => header.replace(/-/g, '');

/** A success response's headers: the handler's (always or sometimes there), then those the route fixes. */
const declaredHeaders = (spec: ResponseSpec): Record<string, HeaderObject | Reference> => {
  const headers: Record<string, HeaderObject | Reference> = {};
  for (const name of spec.headers ?? []) headers[name] = ref('headers', componentName(name));
  for (const name of spec.optionalHeaders ?? []) headers[name] = { ...HEADERS[componentName(name)], required: false };
  for (const [name, value] of Object.entries(spec.fixedHeaders ?? {}) as [FixedHeader, string][]) {
    headers[name] = { description: FIXED_HEADERS[name], required: true, schema: { type: 'string', const: value } };
  }
  return headers;
};

/** A success response's content: JSON, or the bytes of the declared media type (its parameters are in Content-Type, not in the key). */
const successContent = (spec: ResponseSpec, registry: SchemaRegistry): Content | undefined => {
  if (spec.body === undefined) return undefined;
  if (spec.mediaType === undefined) return jsonContent(registry.schemaOf(spec.body));
  return { [spec.mediaType.split(';')[0].trim()]: { schema: registry.schemaOf(spec.body) } };
};

/** A header that is there whenever it can be, but not always (the request may fail before it is set). */
const optional = (name: string, why: string): HeaderObject => ({
  ...HEADERS[name],
  required: false,
  description: `${HEADERS[name].description} ${why}`,
});

const problemResponse = (route: Route, status: number, sources: readonly Source[]): ResponseObject => {
  const tags = unique(sources.map((source) => source.tag));
  const idempotent = route.guards.includes('idempotency');
  const lines = unique(
    sources.map((source) => {
      const text = source.note ?? ERROR_TABLE[source.tag].description;
      const coded = tags.length > 1 ? `\`${ERROR_TABLE[source.tag].code}\`: ${text}` : text;
      if (!idempotent) return coded;
      if (source.business === true) return `${coded} Stored under an Idempotency-Key, and replayed.`;
      return status >= 500
        ? `${coded} Not stored under an Idempotency-Key: the same request may retry and finish the work.`
        : `${coded} Not stored under an Idempotency-Key.`;
    }),
  );
  if (route.guards.includes('rateLimit') && status === 401) lines.push('Counted against no token: no rate-limit headers.');
  const headers: Record<string, HeaderObject | Reference> = { 'X-Request-Id': ref('headers', 'RequestId') };
  if (status === 401 && tags.some((tag) => tag !== 'SourceSignatureInvalid'))
    headers['WWW-Authenticate'] = ref('headers', 'WwwAuthenticate');
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'RetryAfter');
  if (tags.includes('IdempotencyKeyInProgress')) {
    headers['Retry-After'] =
      tags.length === 1
        ? ref('headers', 'RetryAfter')
        : optional('RetryAfter', 'Only with `IDEMPOTENCY_KEY_IN_PROGRESS`: the seconds left on the claim that holds the key.');
  }
  if (route.guards.includes('rateLimit') && status !== 401) Object.assign(headers, rateLimitHeaders(status >= 500));
  if (idempotent && sources.some((source) => source.business === true))
    headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
  return { description: lines.join(lines.length > 1 ? '\n\n' : ''), headers, content: problemContent(tags) };
};

/** On 500 and 503 storage may fail before the request was counted, so the headers may be missing. */
const rateLimitHeaders = (mayBeMissing: boolean): Record<string, HeaderObject | Reference> =>
  mayBeMissing
    ? {
        'RateLimit-Policy': optional(
          'RateLimitPolicy',
          'Absent when the failure came before the request was counted (while authenticating).',
        ),
        RateLimit: optional('RateLimit', 'Absent when the failure came before the request was counted (while authenticating).'),
      }
    : { 'RateLimit-Policy': ref('headers', 'RateLimitPolicy'), RateLimit: ref('headers', 'RateLimit') };

/** The members of a parameter object, read one by one, with their description lifted from the schema. */
const parametersOf = (codec: ParametersCodec | undefined, where: 'path' | 'query', registry: SchemaRegistry): ParameterObject[] => {
  if (codec === undefined) return [];
  const members = [
    ...Object.entries(codec.required).map(([n, c]) => [n, c, true] as const),
    ...Object.entries(codec.optional).map(([n, c]) => [n, c, false] as const),
  ];
  return members.map(([name, member, required]) => {
    const { description, ...schema } = registry.schemaOf(member);
    const text = where === 'query' ? `${description ?? ''} Give it at most once.`.trim() : (description ?? '');
    return { name, in: where, required: where === 'path' || required, description: text, schema };
  });
};

const operationOf = (route: Route, registry: SchemaRegistry): OperationObject => {
  const idempotent = route.guards.includes('idempotency');
  const responses: Record<string, ResponseObject | Reference> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const headers: Record<string, HeaderObject | Reference> = { 'X-Request-Id': ref('headers', 'RequestId'), ...declaredHeaders(spec) };
    if (route.guards.includes('rateLimit')) Object.assign(headers, rateLimitHeaders(false));
    if (idempotent) headers['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed');
    const content = successContent(spec, registry);
    responses[status] = { description: spec.description, headers, ...(content === undefined ? {} : { content }) };
  }
  const byStatus = new Map<number, Source[]>();
  for (const source of sourcesOf(route)) {
    const status = ERROR_TABLE[source.tag].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), source]);
  }
  for (const [status, sources] of [...byStatus].sort(([a], [b]) => a - b))
    responses[String(status)] = problemResponse(route, status, sources);
  // OpenAPI 3.1 lets a requirement of any scheme list roles: here, the scope the token needs.
  const scopes = route.scope === undefined || route.scope === 'any' ? [] : [route.scope];
  const security = route.guards.includes('token') ? [{ bearerAuth: scopes }] : route.guards.includes('admin') ? [{ adminToken: [] }] : [];
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(descriptionOf(route) === undefined ? {} : { description: descriptionOf(route) }),
    tags: [route.tag],
    security,
    parameters: [
      ref('parameters', 'RequestId'),
      ...(idempotent ? [ref('parameters', 'IdempotencyKey')] : []),
      ...(route.requestHeaders ?? []).map((name) => ref('parameters', componentName(name))),
      ...parametersOf(route.params, 'path', registry),
      ...parametersOf(route.query, 'query', registry),
    ],
    ...(route.body === undefined
      ? {}
      : { requestBody: { required: true, content: jsonContent(registry.schemaOf(route.body), route.bodyExamples) } }),
    ...(route.rawBody === true
      ? {
          requestBody: {
            required: true,
            description: "The platform's webhook body, exactly as the platform signed it.",
            content: { 'application/json': { schema: { type: 'object', description: "The platform's own payload." } } },
          },
        }
      : {}),
    responses,
  };
};

/** Answers given outside any operation: no route, another method, or a request Node refuses itself. */
const OUTSIDE_OPERATIONS: Record<string, readonly [ProblemTag, Record<string, Reference>]> = {
  RouteNotFound: ['RouteNotFound', {}],
  MethodNotAllowed: ['MethodNotAllowed', { Allow: ref('headers', 'Allow') }],
  MalformedRequest: ['MalformedRequest', {}],
  RequestTimeout: ['RequestTimeout', {}],
  HeadersTooLarge: ['HeadersTooLarge', {}],
};

/** The document of `routes`, with `webhooks`: the requests the service sends, which no route declares. */
export const buildOpenApiDocument = (routes: readonly Route[], webhookRequests: WebhookSection): OpenApiDocument => {
  const registry = new SchemaRegistry();
  const paths: Record<string, Record<string, OperationObject>> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = operationOf(route, registry);
  registry.schemaOf(webhookRequests.event);
  const webhooks = Object.fromEntries(
    webhookRequests.requests.map(({ type, summary, operationId, body }) => [
      type,
      {
        post: {
          operationId,
          summary,
          description: webhookRequests.description,
          parameters: webhookRequests.headers,
          security: [] as const,
          requestBody: { required: true as const, content: { 'application/json': { schema: registry.schemaOf(body) } } },
          responses: webhookRequests.responses,
        },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Orders service', version: API_VERSION, description: API_DESCRIPTION },
    servers: [
      { url: '/', description: 'The service that serves this document: its paths are relative to where the document was fetched from.' },
    ],
    tags: TAGS,
    paths: paths,
    webhooks,
    components: {
      schemas: { ...registry.components, ...PROBLEM_SCHEMAS },
      responses: Object.fromEntries(
        Object.entries(OUTSIDE_OPERATIONS).map(([name, [tag, headers]]) => [
          name,
          {
            description: ERROR_TABLE[tag].description,
            headers: { 'X-Request-Id': ref('headers', 'RequestId'), ...headers },
            content: problemContent([tag]),
          },
        ]),
      ),
      parameters: {
        RequestId: REQUEST_ID_PARAMETER,
        IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER,
        ...Object.fromEntries(Object.values(REQUEST_HEADER_PARAMETERS).map((parameter) => [componentName(parameter.name), parameter])),
      },
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
};
