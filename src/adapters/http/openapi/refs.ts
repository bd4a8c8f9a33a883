import type { Reference } from './types';

/** `$ref`s into the document's components; a test checks that each one resolves. */
export const schemaRef = (name: string): { readonly $ref: string } => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): Reference => ({ $ref: `#/components/responses/${name}` });
export const parameterRef = (name: string): Reference => ({ $ref: `#/components/parameters/${name}` });
export const headerRef = (name: string): Reference => ({ $ref: `#/components/headers/${name}` });
