import type * as t from 'io-ts';
import type { JsonSchema, JsonValue, Reference } from '../json-schema';

export type { JsonSchema, JsonValue, Reference };

/** The parts of OpenAPI 3.1 that this service's document uses, typed so that a misspelt keyword does not compile. */

export interface HeaderObject {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface ParameterObject extends HeaderObject {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
}

export type Content = Readonly<
  Record<
    string,
    { readonly schema: JsonSchema; readonly examples?: Readonly<Record<string, { readonly summary?: string; readonly value: JsonValue }>> }
  >
>;

export interface ResponseObject {
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>;
  readonly content?: Content;
}

export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** `[]` for the routes without authentication. */
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly requestBody?: { readonly required: boolean; readonly description?: string; readonly content: Content };
  readonly responses: Readonly<Record<string, ResponseObject | Reference>>;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type PathItemObject = { readonly [M in HttpMethod]?: OperationObject } & {
  readonly parameters?: readonly (ParameterObject | Reference)[];
};

export interface SecuritySchemeObject {
  readonly type: 'http';
  readonly scheme: 'bearer';
  readonly bearerFormat?: string;
  readonly description: string;
}

/** A request the service makes to its callers (OpenAPI 3.1 `webhooks`): the webhook requests. */
export interface OutgoingRequestObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly ParameterObject[];
  /** Empty: the receiver authenticates the request by its signature (`webhook-signature`), not by a scheme of the document. */
  readonly security: readonly [];
  readonly requestBody: { readonly required: true; readonly content: Content };
  readonly responses: Readonly<Record<string, { readonly description: string }>>;
}

/** What a feature tells the document of the requests the service sends (the webhooks), which no route declares. */
export interface WebhookSection {
  /** The body of any of them, one schema told apart by `type` (a component of the document). */
  readonly event: t.Mixed;
  /** One request per event type: its body's own codec, its summary and its operationId. */
  readonly requests: readonly { readonly type: string; readonly summary: string; readonly operationId: string; readonly body: t.Mixed }[];
  readonly description: string;
  readonly headers: readonly ParameterObject[];
  readonly responses: Readonly<Record<string, { readonly description: string }>>;
}

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string; readonly description: string }[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly webhooks: Readonly<Record<string, { readonly post: OutgoingRequestObject }>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly parameters: Readonly<Record<string, ParameterObject>>;
    readonly headers: Readonly<Record<string, HeaderObject>>;
    readonly securitySchemes: Readonly<Record<string, SecuritySchemeObject>>;
  };
}
