import { headerRef, parameterRef, schemaRef } from './refs';
import type { JsonValue, ParameterObject, Reference, RequestBodyObject, ResponseObject, SecurityRequirement } from './types';

/** Small pieces every operation repeats. */

export const BEARER: readonly SecurityRequirement[] = [{ bearerAuth: [] }];
export const ADMIN: readonly SecurityRequirement[] = [{ adminToken: [] }];
export const NO_AUTH: readonly SecurityRequirement[] = [];

/** Every operation accepts an X-Request-Id. */
export const withRequestId = (...parameters: (ParameterObject | Reference)[]): (ParameterObject | Reference)[] => [
  parameterRef('RequestId'),
  ...parameters,
];

/** A JSON success response; every response carries X-Request-Id. */
export const success = (
  description: string,
  schemaName: string,
  extraHeaders: Record<string, Reference> = {},
): ResponseObject => ({
  description,
  headers: { 'X-Request-Id': headerRef('RequestId'), ...extraHeaders },
  content: { 'application/json': { schema: schemaRef(schemaName) } },
});

export const jsonRequest = (
  schemaName: string,
  description: string,
  examples: Record<string, JsonValue> = {},
): RequestBodyObject => ({
  description,
  required: true,
  content: {
    'application/json': {
      schema: schemaRef(schemaName),
      ...(Object.keys(examples).length === 0
        ? {}
        : { examples: Object.fromEntries(Object.entries(examples).map(([name, value]) => [name, { value }])) }),
    },
  },
});

export const pathParameter = (name: string, description: string, maxLength: number): ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', minLength: 1, maxLength },
});
