/**
 * The parts of OpenAPI 3.1 (and of its JSON Schema 2020-12 dialect) that this service's document
 * uses, typed so that a misspelt keyword does not compile.
 */

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface Reference {
  readonly $ref: string;
  readonly description?: string;
}

export interface JsonSchema {
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly title?: string;
  readonly description?: string;
  readonly type?: JsonType | readonly JsonType[];
  readonly enum?: readonly JsonValue[];
  readonly const?: JsonValue;
  readonly default?: JsonValue;
  readonly examples?: readonly JsonValue[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly propertyNames?: JsonSchema;
  readonly minProperties?: number;
  readonly dependentRequired?: Readonly<Record<string, readonly string[]>>;
  readonly maxProperties?: number;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly allOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly not?: JsonSchema;
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
}

export interface HeaderObject {
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface ParameterObject {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

export interface MediaTypeObject {
  readonly schema: JsonSchema;
  readonly examples?: Readonly<Record<string, { readonly summary?: string; readonly value: JsonValue }>>;
}

export type Content = Readonly<Record<string, MediaTypeObject>>;

export interface RequestBodyObject {
  readonly description?: string;
  readonly required: boolean;
  readonly content: Content;
}

export interface ResponseObject {
  readonly description: string;
  readonly headers?: Readonly<Record<string, HeaderObject | Reference>>;
  readonly content?: Content;
}

export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OperationObject {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** `[]` for the routes without authentication. */
  readonly security: readonly SecurityRequirement[];
  readonly parameters?: readonly (ParameterObject | Reference)[];
  readonly requestBody?: RequestBodyObject | Reference;
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

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly parameters: Readonly<Record<string, ParameterObject>>;
    readonly headers: Readonly<Record<string, HeaderObject>>;
    readonly securitySchemes: Readonly<Record<string, SecuritySchemeObject>>;
  };
}
